import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseConnection } from '../src/db/client.ts';
import { activityLogs, webhookDeliveries } from '../src/db/schema/index.ts';
import { expectActivityCountersToMatchRows } from './activity-counters-oracle.ts';
import { insertAppUserWithPassword, insertOwnerSessionAndApplication } from './factories.ts';
import { findFreePortBlock } from './free-port-block.ts';
import { startRealServer } from './real-server.ts';
import {
  insertTestWebhook,
  startWebhookReceiver,
  type WebhookReceiver,
} from './webhook-test-receiver.ts';
import { createEmptyPostgresDatabase } from './test-database.ts';

const PASSWORD = 'correct horse battery';
/**
 * How long a change may take to reach the other instance before a test fails. Not a promise
 * of speed (bench/revocation-window.mjs measures that): the caches keep entries for an hour
 * here, so a refusal seen at all before then can only have come from the notification, and a
 * margin this wide cannot be broken by a loaded CI machine.
 */
const PROPAGATION_MARGIN_MS = 10_000;
const FAILURE_LIMIT = 4;
const MANAGE_API_RATE_LIMIT = 6;

/**
 * Several instances, as deployed: two real servers (main.ts) on one PostgreSQL database, the
 * second itself a cluster of two workers (WEB_CONCURRENCY=2), driven alternately. A change
 * made through one is enforced by the other by notification, a throttle counts across both,
 * an event is delivered once, and killing one mid-load loses nothing it acknowledged.
 * A non-demo Firebase project, so that no server starts an Auth emulator; the owner's console
 * session is seeded in the database, as a sign-in would leave it.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('several instances on one PostgreSQL', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'latchkey-instances-'));
  const serverSecret = randomBytes(32).toString('base64url');
  const sessionToken = randomBytes(32).toString('base64url');
  const children: ChildProcess[] = [];
  let dropDatabase: () => Promise<void> = async () => {};
  let database: DatabaseConnection;
  let receiver: WebhookReceiver;
  let first: { port: number; child: ChildProcess };
  let second: { port: number; child: ChildProcess };
  let application: Awaited<ReturnType<typeof insertOwnerSessionAndApplication>>['application'];
  let webhookId: number;
  let metricsPort: number;

  beforeAll(async () => {
    const empty = await createEmptyPostgresDatabase(
      process.env.TEST_DATABASE_URL!,
      'latchkey_instances',
    );
    dropDatabase = empty.drop;
    const url = new URL(empty.url);
    database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 2 });

    const seeded = await insertOwnerSessionAndApplication(database.db, {
      firebaseUid: 'instances-owner',
      email: 'owner@example.com',
      sessionToken,
      serverSecret,
    });
    const owner = seeded.owner;
    application = seeded.application;
    receiver = await startWebhookReceiver();
    receiver.answerWith(() => ({ status: 200 }));
    webhookId = (
      await insertTestWebhook(database.db, serverSecret, {
        ownerAccountId: owner.id,
        applicationId: application.id,
        url: receiver.url('/logins'),
        events: ['user_login'],
      })
    ).id;

    const env = { DATABASE_URL: url.toString() };
    const [firstPort, secondPort] = [await findFreePortBlock(), await findFreePortBlock()];
    metricsPort = await findFreePortBlock();
    [first, second] = await Promise.all([
      startServer(firstPort!, env),
      startServer(secondPort!, {
        ...env,
        WEB_CONCURRENCY: '2',
        METRICS_PORT: String(metricsPort),
      }),
    ]);
  }, 90_000);

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await receiver?.close();
    await database?.close();
    await dropDatabase();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function startServer(
    port: number,
    env: Record<string, string>,
  ): Promise<{ port: number; child: ChildProcess }> {
    const child = await startRealServer({
      port,
      dataDir,
      serverSecret,
      firebaseProjectId: 'latchkey-instances-test',
      env: {
        // Only a notification can explain another instance seeing a change within the hour.
        CLIENT_API_CACHE_TTL_SECONDS: '3600',
        LOGIN_FAILURE_LIMIT: String(FAILURE_LIMIT),
        MANAGE_API_RATE_LIMIT_PER_MINUTE: String(MANAGE_API_RATE_LIMIT),
        WEBHOOK_POLL_INTERVAL_MS: '100',
        ...env,
      },
    });
    children.push(child);
    return { port, child };
  }

  const logIn = async (port: number, username: string, password = PASSWORD) => {
    const response = await fetch(`http://127.0.0.1:${port}/api/v1/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': application.apiKey },
      body: JSON.stringify({ username, password, version: '1.0.0' }),
    });
    return { status: response.status, ...((await response.json()) as { code: string }) };
  };

  /** A client-API session/track call; answers the code. */
  const track = async (port: number, body: Record<string, string>) => {
    const response = await fetch(`http://127.0.0.1:${port}/api/v1/session/track`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': application.apiKey },
      body: JSON.stringify(body),
    });
    return ((await response.json()) as { code: string }).code;
  };

  /** Logs the user in and starts their session through the first instance. */
  const startSessionOnFirst = async (user: { id: string; username: string }) => {
    const login = await fetch(`http://127.0.0.1:${first.port}/api/v1/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': application.apiKey },
      body: JSON.stringify({ username: user.username, password: PASSWORD, version: '1.0.0' }),
    });
    const token = ((await login.json()) as { session_token: string }).session_token;
    expect(
      await track(first.port, { action: 'start', user_id: user.id, session_token: token }),
    ).toBe('OK');
    return { token, heartbeat: { action: 'heartbeat', session_token: token } };
  };

  const setApplicationActive = async (port: number, isActive: boolean) => {
    const origin = `http://127.0.0.1:${port}`;
    const response = await fetch(`${origin}/api/applications/${application.id}`, {
      method: 'PUT',
      headers: {
        'content-type': 'application/json',
        cookie: `latchkey_session=${sessionToken}`,
        origin,
      },
      body: JSON.stringify({ isActive }),
    });
    expect(response.status).toBe(200);
  };

  /** Every one of `times` answers in a row (each worker's turn) passes `check`, within `ms`. */
  async function holdsWithin(ms: number, times: number, check: () => Promise<boolean>) {
    const startedAt = Date.now();
    let inARow = 0;
    while (inARow < times) {
      inARow = (await check()) ? inARow + 1 : 0;
      if (Date.now() - startedAt > ms) throw new Error(`did not hold within ${ms} ms`);
    }
    return Date.now() - startedAt;
  }

  it('enforces a change made through one instance on the other, by notification', async () => {
    const user = await insertAppUserWithPassword(database.db, application.id, PASSWORD);
    // Both instances (and both of the second's workers) now hold the application in memory.
    for (let i = 0; i < 4; i += 1) {
      expect((await logIn(first.port, user.username)).code).toBe('OK');
      expect((await logIn(second.port, user.username)).code).toBe('OK');
    }

    try {
      await setApplicationActive(first.port, false);
      await holdsWithin(PROPAGATION_MARGIN_MS, 4, async () => {
        return (await logIn(second.port, user.username)).code === 'APP_DISABLED';
      });
      await setApplicationActive(second.port, true);
      await holdsWithin(PROPAGATION_MARGIN_MS, 4, async () => {
        return (await logIn(first.port, user.username)).code === 'OK';
      });
    } finally {
      // The other tests need it active, whatever happened here.
      await database.query({
        text: 'update applications set is_active = true where id = $1',
        values: [application.id],
      });
    }
  }, 30_000);

  it('refuses heartbeats on one instance to a session ended through the other, by notification', async () => {
    const user = await insertAppUserWithPassword(database.db, application.id, PASSWORD);
    const { token, heartbeat } = await startSessionOnFirst(user);
    // Both of the second instance's workers now hold the open session in memory.
    for (let i = 0; i < 4; i += 1) expect(await track(second.port, heartbeat)).toBe('OK');

    expect(await track(first.port, { action: 'end', session_token: token })).toBe('OK');
    await holdsWithin(
      PROPAGATION_MARGIN_MS,
      4,
      async () => (await track(second.port, heartbeat)) === 'SESSION_INVALID',
    );
  }, 30_000);

  it("refuses a paused user's heartbeat on the other instance's every worker once the owner's answer is back", async () => {
    // The owner's answer waits for every listening instance (each worker of
    // the second) to acknowledge the pause, which each does after dropping its caches.
    const user = await insertAppUserWithPassword(database.db, application.id, PASSWORD);
    const ownerAction = async (action: 'pause' | 'unpause') => {
      const origin = `http://127.0.0.1:${first.port}`;
      const response = await fetch(
        `${origin}/api/applications/${application.id}/users/${user.id}/${action}`,
        { method: 'POST', headers: { cookie: `latchkey_session=${sessionToken}`, origin } },
      );
      expect(response.status).toBe(200);
    };
    for (let run = 0; run < 5; run += 1) {
      await ownerAction('unpause');
      const { heartbeat } = await startSessionOnFirst(user);
      // Both workers of the second instance now hold the open session in memory.
      for (let i = 0; i < 4; i += 1) {
        expect(await track(second.port, heartbeat)).toBe('OK');
      }
      await ownerAction('pause');
      for (let i = 0; i < 2; i += 1) {
        expect(await track(second.port, heartbeat)).toBe('ACCOUNT_DISABLED');
      }
    }
  }, 60_000);

  it("refuses the heartbeats of a user whose password the owner reset, on the other instance's every worker, once the answer is back", async () => {
    const user = await insertAppUserWithPassword(database.db, application.id, PASSWORD);
    const { heartbeat } = await startSessionOnFirst(user);
    // Both workers of the second instance now hold the open session in memory.
    for (let i = 0; i < 4; i += 1) expect(await track(second.port, heartbeat)).toBe('OK');
    const origin = `http://127.0.0.1:${first.port}`;
    const reset = await fetch(`${origin}/api/applications/${application.id}/users/${user.id}`, {
      method: 'PUT',
      headers: {
        'content-type': 'application/json',
        cookie: `latchkey_session=${sessionToken}`,
        origin,
      },
      body: JSON.stringify({ password: 'a brand new passphrase' }),
    });
    expect(reset.status).toBe(200);
    for (let i = 0; i < 4; i += 1) {
      expect(await track(second.port, heartbeat)).toBe('SESSION_INVALID');
    }
  }, 30_000);

  it("answers APP_DISABLED to heartbeats on the other instance's every worker once the application is deactivated", async () => {
    // Both answers were once seen: SESSION_INVALID on one run, APP_DISABLED on another.
    const user = await insertAppUserWithPassword(database.db, application.id, PASSWORD);
    const { heartbeat } = await startSessionOnFirst(user);
    // One of the second's workers holds the session in memory, the other may not: both
    // paths must answer alike.
    expect(await track(second.port, heartbeat)).toBe('OK');
    try {
      await setApplicationActive(first.port, false);
      const codes = [];
      for (let i = 0; i < 4; i += 1) codes.push(await track(second.port, heartbeat));
      codes.push(await track(first.port, heartbeat));
      expect(codes).toEqual(Array(5).fill('APP_DISABLED'));
    } finally {
      await setApplicationActive(first.port, true);
    }
  }, 30_000);

  it('serves KeyAuth sessions across instances, and stops answering at once when turned off', async () => {
    const user = await insertAppUserWithPassword(database.db, application.id, PASSWORD);
    const other = await insertAppUserWithPassword(database.db, application.id, PASSWORD);
    const settings = async (body: Record<string, unknown>) => {
      const origin = `http://127.0.0.1:${first.port}`;
      const response = await fetch(`${origin}/api/applications/${application.id}`, {
        method: 'PUT',
        headers: {
          'content-type': 'application/json',
          cookie: `latchkey_session=${sessionToken}`,
          origin,
        },
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(200);
      return (await response.json()) as { keyauthOwnerId: string; keyauthName: string };
    };
    const { keyauthOwnerId, keyauthName } = await settings({ keyauthCompatibility: true });
    let sessionid = '';
    const keyauth = async (port: number, fields: Record<string, string>) => {
      const response = await fetch(`http://127.0.0.1:${port}/api/1.3/`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          ...fields,
          sessionid,
          name: keyauthName,
          ownerid: keyauthOwnerId,
        }).toString(),
      });
      const text = await response.text();
      return text === 'KeyAuth_Invalid' ? { success: false, message: text } : JSON.parse(text);
    };
    try {
      sessionid = (await keyauth(first.port, { type: 'init', ver: '1.0.0' })).sessionid;
      expect(
        (await keyauth(first.port, { type: 'login', username: user.username, pass: PASSWORD }))
          .success,
      ).toBe(true);
      // Both of the second instance's workers now remember the session's binding.
      for (let i = 0; i < 4; i += 1) {
        expect((await keyauth(second.port, { type: 'check' })).success).toBe(true);
      }
      // A new login on the same session, through the first, replaces the remembered binding.
      expect(
        (await keyauth(first.port, { type: 'login', username: other.username, pass: PASSWORD }))
          .success,
      ).toBe(true);
      for (let i = 0; i < 4; i += 1) {
        expect((await keyauth(second.port, { type: 'check' })).success).toBe(true);
      }
      expect((await keyauth(first.port, { type: 'logout' })).success).toBe(true);
      for (let i = 0; i < 4; i += 1) {
        expect((await keyauth(second.port, { type: 'check' })).success).toBe(false);
      }
      await settings({ keyauthCompatibility: false });
      for (let i = 0; i < 4; i += 1) {
        expect((await keyauth(second.port, { type: 'init', ver: '1.0.0' })).message).toBe(
          'KeyAuth_Invalid',
        );
      }
    } finally {
      await settings({ keyauthCompatibility: false });
    }
  }, 30_000);

  it("serves each cluster worker's metrics on a port of its own", async () => {
    // Worker N listens on METRICS_PORT + N (a shared port would answer for a random worker).
    for (const port of [metricsPort, metricsPort + 1]) {
      const response = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('latchkey_process_start_time_seconds');
    }
  });

  it('counts failed logins across instances', async () => {
    const user = await insertAppUserWithPassword(database.db, application.id, PASSWORD);
    const codes: string[] = [];
    for (let i = 0; i < FAILURE_LIMIT; i += 1) {
      const port = i % 2 === 0 ? first.port : second.port;
      codes.push((await logIn(port, user.username, 'wrong password')).code);
    }
    expect(codes.every((code) => code !== 'RATE_LIMITED')).toBe(true);
    expect(await logIn(first.port, user.username, 'wrong password')).toMatchObject({
      status: 429,
      code: 'RATE_LIMITED',
    });
    expect(await logIn(second.port, user.username, PASSWORD)).toMatchObject({
      status: 429,
      code: 'RATE_LIMITED',
    });
  }, 30_000);

  /** Creates a management API token through the first instance's owner API, as the console does. */
  const createToken = async (): Promise<{ id: string; token: string }> => {
    const origin = `http://127.0.0.1:${first.port}`;
    const response = await fetch(`${origin}/api/api-tokens`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie: `latchkey_session=${sessionToken}`,
        origin,
      },
      body: JSON.stringify({ name: 'Shop', scopes: ['applications:read'] }),
    });
    expect(response.status).toBe(201);
    return (await response.json()) as { id: string; token: string };
  };
  const listApplications = async (port: number, token: string) =>
    fetch(`http://127.0.0.1:${port}/api/manage/v1/applications`, {
      headers: { authorization: `Bearer ${token}` },
    });

  it("refuses a revoked management token on the other instance's every worker once the revocation is answered", async () => {
    const { id, token } = await createToken();
    for (let turn = 0; turn < 4; turn += 1) {
      expect((await listApplications(second.port, token)).status).toBe(200);
    }
    const origin = `http://127.0.0.1:${first.port}`;
    const revoked = await fetch(`${origin}/api/api-tokens/${id}`, {
      method: 'DELETE',
      headers: { cookie: `latchkey_session=${sessionToken}`, origin },
    });
    expect(revoked.status).toBe(200);
    // No waiting: every call looks the token up, so each worker's next answer is a refusal.
    for (let turn = 0; turn < 4; turn += 1) {
      expect((await listApplications(second.port, token)).status).toBe(401);
    }
    expect((await listApplications(first.port, token)).status).toBe(401);
  });

  it("spends a token's per-minute budget across instances", async () => {
    const { token } = await createToken();
    const remaining: string[] = [];
    for (let call = 0; call < MANAGE_API_RATE_LIMIT; call += 1) {
      const response = await listApplications(call % 2 === 0 ? first.port : second.port, token);
      expect(response.status).toBe(200);
      remaining.push(response.headers.get('ratelimit-remaining')!);
    }
    expect(remaining).toEqual(['5', '4', '3', '2', '1', '0']);
    for (const port of [first.port, second.port]) {
      const limited = await listApplications(port, token);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('delivers each event once, and loses nothing acknowledged when an instance is killed mid-load', async () => {
    const users = await Promise.all(
      Array.from({ length: 60 }, () =>
        insertAppUserWithPassword(database.db, application.id, PASSWORD),
      ),
    );
    // Logins on both instances at once; the first instance is killed while they run.
    const acknowledged: string[] = [];
    const logins = users.map(async (user, index) => {
      await sleep(index * 15);
      const port = index % 2 === 0 ? first.port : second.port;
      try {
        const answer = await logIn(port, user.username);
        if (answer.code === 'OK') acknowledged.push(user.id);
      } catch {
        // The killed instance's connection broke: not acknowledged, so no promise was made.
      }
    });
    await sleep(users.length * 7);
    first.child.kill('SIGKILL');
    await Promise.all(logins);
    expect(acknowledged.length).toBeGreaterThan(users.length / 2);

    // Every acknowledged login is in the activity log...
    const logged = await database.db
      .select({ userId: activityLogs.appUserId })
      .from(activityLogs)
      .where(
        and(
          eq(activityLogs.applicationId, application.id),
          eq(activityLogs.event, 'user_login'),
          inArray(
            activityLogs.appUserId,
            users.map((user) => user.id),
          ),
        ),
      );
    const loggedIds = new Set(logged.map((row) => row.userId));
    expect(acknowledged.filter((id) => !loggedIds.has(id))).toEqual([]);
    // The counters over the log lose nothing either: a row's deltas commit with it, so once
    // folded they equal what the repair recounts from the rows.
    await expectActivityCountersToMatchRows(database.db);

    // ...and has a webhook delivery; those the survivor can send arrive exactly once (a send
    // the killed instance had claimed waits for its lease, as webhook-dispatcher.test.ts shows).
    const deliveries = await database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.webhookId, webhookId));
    expect(deliveries.length).toBeGreaterThanOrEqual(logged.length);
    await sleep(2000);
    const received = receiver.to('/logins').map((request) => String(request.headers['webhook-id']));
    expect(received.length).toBe(new Set(received).size);
    const succeeded = (
      await database.db
        .select({ id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .where(
          and(
            eq(webhookDeliveries.webhookId, webhookId),
            eq(webhookDeliveries.status, 'succeeded'),
          ),
        )
    ).map((row) => row.id);
    // Sent and acknowledged by the receiver; a send the killed instance made but could not
    // record may be received without being marked (it is sent again after its lease).
    expect(succeeded.filter((id) => !received.includes(id))).toEqual([]);
    expect(succeeded.length).toBeGreaterThan(0);
  }, 60_000);
});
