import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { inArray } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseConnection } from '../src/db/client.ts';
import { appUsers } from '../src/db/schema/index.ts';
import { insertAppUserWithPassword, insertOwnerSessionAndApplication } from './factories.ts';
import { findFreePortBlock } from './free-port-block.ts';
import { startRealServer } from './real-server.ts';
import { createEmptyPostgresDatabase } from './test-database.ts';
import {
  findPostgresBinaries,
  startThrowawayPostgresServer,
  type ThrowawayPostgresServer,
} from './throwaway-postgres-server.ts';

const PASSWORD = 'correct horse battery';
/** An answer later than this counts as none: a request must not wait on a dead connection. */
const REQUEST_TIMEOUT_MS = 15_000;

/**
 * A database failover must cost a few failed requests, never the process: a real server
 * (main.ts) under a steady load of logins, registrations, heartbeats and owner writes, while
 * its PostgreSQL backends are terminated in every state a connection can be in, and while its
 * PostgreSQL restarts. Every answer is either the call's own or a 503 with Retry-After (never a
 * 500, never a dropped connection); the process is still up at the end, serves again without a
 * restart, and every write it acknowledged is in the database.
 */
describe.runIf(process.env.TEST_DATABASE_URL)(
  'a server that outlives its database connections',
  () => {
    const cleanups: (() => Promise<void>)[] = [];
    afterAll(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    });

    it('keeps serving while its backends are terminated under load, in every state', async () => {
      const empty = await createEmptyPostgresDatabase(
        process.env.TEST_DATABASE_URL!,
        'latchkey_outage',
      );
      cleanups.push(empty.drop);
      const target = await startTarget(empty.url);
      const killer = new pg.Client({ connectionString: empty.url });
      await killer.connect();
      cleanups.push(() => killer.end());

      // Each round terminates one kind of backend; a kill -9 of one backend would restart
      // PostgreSQL as a whole, which the next test does on a server of its own.
      const kinds = [
        `state = 'idle in transaction'`,
        `state = 'active'`,
        `state = 'idle'`,
        `application_name = 'latchkey-listener'`,
        'true',
      ];
      // What was terminated, by the backend's state (and the listener apart).
      const terminated: Record<string, number> = {};
      const load = runLoad(target);
      for (let round = 0; round < 60; round += 1) {
        const kind = kinds[round % kinds.length]!;
        const { rows } = await killer.query<{ what: string }>(
          `select case when application_name = 'latchkey-listener' then 'listener'
                       else coalesce(state, 'none') end as what, pg_terminate_backend(pid)
             from pg_stat_activity
            where datname = current_database() and usename = current_user
              and pid <> pg_backend_pid() and ${kind}`,
        );
        for (const { what } of rows) terminated[what] = (terminated[what] ?? 0) + 1;
        await sleep(100);
      }
      const outcome = await load.stop();
      await expectSurvivedAndRecovered(target, outcome);
      // The listener and idle pool connections surely; the other states as the load had them.
      expect(terminated.listener, JSON.stringify(terminated)).toBeGreaterThan(0);
      expect(terminated.idle, JSON.stringify(terminated)).toBeGreaterThan(0);
      expect(outcome.unavailable, JSON.stringify(terminated)).toBeGreaterThan(0);
    }, 180_000);

    it.runIf(findPostgresBinaries() !== null || process.env.CI === 'true')(
      'keeps serving across PostgreSQL restarts under load, and recovers without a restart',
      async () => {
        const server: ThrowawayPostgresServer = await startThrowawayPostgresServer();
        cleanups.push(() => server.stop());
        const target = await startTarget(server.url);
        const load = runLoad(target);
        for (let restart = 0; restart < 3; restart += 1) {
          await sleep(700);
          await server.restart({ downForMs: 500 });
        }
        await sleep(700);
        const outcome = await load.stop();
        await expectSurvivedAndRecovered(target, outcome);
        expect(outcome.unavailable).toBeGreaterThan(0);
      },
      180_000,
    );

    interface Target {
      origin: string;
      child: ChildProcess;
      /** The server's error-level log lines (a 500's cause). */
      errors: string[];
      database: DatabaseConnection;
      apiKey: string;
      applicationId: number;
      sessionToken: string;
      usernames: string[];
    }

    /** A database seeded with an owner, an application and users, and a server on it. */
    async function startTarget(url: string): Promise<Target> {
      const serverSecret = randomBytes(32).toString('base64url');
      const sessionToken = randomBytes(32).toString('base64url');
      const database = await openDatabase({ kind: 'postgres', url, poolSize: 2 }, () => undefined);
      cleanups.push(() => database.close());
      const { application } = await insertOwnerSessionAndApplication(database.db, {
        firebaseUid: 'outage-owner',
        email: 'outage@example.com',
        sessionToken,
        serverSecret,
      });
      const usernames: string[] = [];
      for (let index = 0; index < 4; index += 1) {
        usernames.push(
          (await insertAppUserWithPassword(database.db, application.id, PASSWORD)).username,
        );
      }
      const dataDir = mkdtempSync(join(tmpdir(), 'latchkey-outage-'));
      cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
      const port = await findFreePortBlock();
      const errors: string[] = [];
      const child = await startRealServer({
        onStdout: (text) => {
          for (const line of text.split('\n')) if (line.includes('"level":50')) errors.push(line);
        },
        port,
        dataDir,
        serverSecret,
        firebaseProjectId: 'latchkey-outage-test',
        env: {
          DATABASE_URL: url,
          DATABASE_POOL_SIZE: '4',
          ACTIVITY_FLUSH_INTERVAL_MS: '20',
          LOGIN_FAILURE_LIMIT: '1000',
          CLIENT_API_IP_LIMIT_PER_MINUTE: '100000',
        },
      });
      cleanups.push(async () => {
        if (child.exitCode === null) child.kill('SIGKILL');
      });
      return {
        origin: `http://127.0.0.1:${port}`,
        child,
        errors,
        database,
        apiKey: application.apiKey,
        applicationId: application.id,
        sessionToken,
        usernames,
      };
    }

    interface LoadOutcome {
      answered: number;
      unavailable: number;
      /** Any answer that is neither the call's own nor a 503 with Retry-After. */
      wrong: string[];
      registered: string[];
      createdByOwner: string[];
    }

    /** Eight callers, each looping over the calls a busy installation answers, until stopped. */
    function runLoad(target: Target): { stop(): Promise<LoadOutcome> } {
      const outcome: LoadOutcome = {
        answered: 0,
        unavailable: 0,
        wrong: [],
        registered: [],
        createdByOwner: [],
      };
      let isStopped = false;
      const client = (path: string, body: unknown) =>
        fetch(`${target.origin}/api/v1/${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': target.apiKey },
          body: JSON.stringify(body),
        });
      const owner = (path: string, body: unknown) =>
        fetch(`${target.origin}${path}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            cookie: `latchkey_session=${target.sessionToken}`,
            origin: target.origin,
          },
          body: JSON.stringify(body),
        });
      /** Answers the body when the call answered for itself; null for a well-formed 503. */
      const settle = async (what: string, call: Promise<Response>, expected: number[]) => {
        let response: Response;
        try {
          response = await call;
        } catch (error) {
          outcome.wrong.push(`${what}: no answer (${(error as Error).message})`);
          return null;
        }
        const text = await response.text();
        outcome.answered += 1;
        if (response.status === 503 && Number(response.headers.get('retry-after')) > 0) {
          outcome.unavailable += 1;
          return null;
        }
        if (!expected.includes(response.status)) {
          outcome.wrong.push(`${what}: ${response.status} ${text.slice(0, 200)}`);
          return null;
        }
        return JSON.parse(text) as Record<string, unknown>;
      };

      const caller = async (index: number) => {
        for (let turn = 0; !isStopped; turn += 1) {
          const username = target.usernames[(index + turn) % target.usernames.length]!;
          const step = (index + turn) % 4;
          if (step === 0) {
            const name = `reg_${index}_${turn}_${randomBytes(3).toString('hex')}`;
            const body = await settle(
              'register',
              client('register', { username: name, password: PASSWORD, version: '1.0.0' }),
              [200],
            );
            if (body?.success === true) outcome.registered.push(name);
          } else if (step === 1) {
            const body = await settle(
              'login',
              client('login', { username, password: PASSWORD, version: '1.0.0' }),
              [200],
            );
            const token = body?.session_token;
            if (typeof token === 'string') {
              await settle(
                'session start',
                client('session/track', {
                  action: 'start',
                  user_id: body!.user_id,
                  session_token: token,
                }),
                [200],
              );
              await settle(
                'heartbeat',
                client('session/track', { action: 'heartbeat', session_token: token }),
                [200],
              );
            }
          } else if (step === 2) {
            const name = `own_${index}_${turn}_${randomBytes(3).toString('hex')}`;
            const body = await settle(
              'owner create',
              owner(`/api/applications/${target.applicationId}/users`, {
                username: name,
                password: PASSWORD,
              }),
              [201],
            );
            if (body) outcome.createdByOwner.push(name);
          } else {
            await settle(
              'health',
              fetch(`${target.origin}/api/health`, {
                signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
              }),
              [200, 503],
            );
          }
        }
      };
      const callers = Array.from({ length: 8 }, (_, index) => caller(index));
      return {
        stop: async () => {
          isStopped = true;
          await Promise.all(callers);
          return outcome;
        },
      };
    }

    async function expectSurvivedAndRecovered(target: Target, outcome: LoadOutcome) {
      expect(target.child.exitCode, 'the server process exited').toBeNull();
      expect(
        outcome.wrong.slice(0, 20),
        target.errors
          .filter((line) => line.includes('unhandled'))
          .slice(0, 3)
          .join('\n'),
      ).toEqual([]);
      expect(outcome.answered).toBeGreaterThan(100);

      // Recovered without a restart: healthy, and a login and an owner write work again.
      const deadline = Date.now() + 20_000;
      let isHealthy = false;
      while (!isHealthy && Date.now() < deadline) {
        isHealthy = (await fetch(`${target.origin}/api/health`)).ok;
        if (!isHealthy) await sleep(100);
      }
      expect(isHealthy).toBe(true);
      const login = await fetch(`${target.origin}/api/v1/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': target.apiKey },
        body: JSON.stringify({
          username: target.usernames[0],
          password: PASSWORD,
          version: '1.0.0',
        }),
      });
      expect(((await login.json()) as { code: string }).code).toBe('OK');

      // Acknowledged means written: every user the server said it created is there.
      const acknowledged = [...outcome.registered, ...outcome.createdByOwner];
      expect(acknowledged.length).toBeGreaterThan(0);
      const found = await target.database.db
        .select({ username: appUsers.username })
        .from(appUsers)
        .where(inArray(appUsers.username, acknowledged));
      expect(found.map((row) => row.username).sort()).toEqual([...acknowledged].sort());
    }
  },
);
