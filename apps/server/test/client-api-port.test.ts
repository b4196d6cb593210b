import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseConnection } from '../src/db/client.ts';
import { otherCpus, parseCpuList } from '../src/lib/cpu-list.ts';
import { verifyApplicationSignature } from '../src/lib/signing-keys.ts';
import { insertAppUserWithPassword, insertOwnerSessionAndApplication } from './factories.ts';
import { findFreePortBlock } from './free-port-block.ts';
import { startRealServer } from './real-server.ts';
import { createEmptyPostgresDatabase } from './test-database.ts';

const PASSWORD = 'correct horse battery';
const CLIENT_WORKERS = 2;
const CONSOLE_NICENESS = 10;
/** The console's side is kept to CPU 0, the client API's to the others (if there are others). */
const CONSOLE_CPUS = cpus().length > 1 ? '0' : null;
const CLIENT_CPUS = CONSOLE_CPUS === null ? null : otherCpus(CONSOLE_CPUS, cpus().length);

/** A process's niceness: field 19 of /proc/<pid>/stat (after the command in parentheses). */
const nicenessOf = (path: string) =>
  Number(readFileSync(path, 'utf8').split(') ')[1]!.split(' ')[16]);

/** The CPUs a process or thread may run on. */
const cpusOf = (statusPath: string) =>
  parseCpuList(/^Cpus_allowed_list:\s*(\S+)$/m.exec(readFileSync(statusPath, 'utf8'))![1]!);
/** What a side's processes may run on: its CPUs, or every CPU this test may use. */
const expectedCpus = (list: string | null) =>
  list === null ? cpusOf('/proc/self/status') : parseCpuList(list);

/** The cluster's workers: the primary's children, each with the side it was started for. */
function workersOf(primaryPid: number): { pid: number; side: string }[] {
  const workers: { pid: number; side: string }[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const parent = Number(
        readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]!.split(' ')[1],
      );
      if (parent !== primaryPid) continue;
      const environment = readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0');
      const side = environment.find((line) => line.startsWith('LATCHKEY_WORKER_SIDE='));
      if (side) workers.push({ pid: Number(entry), side: side.split('=')[1]! });
    } catch {
      // A process that ended meanwhile.
    }
  }
  return workers;
}

/**
 * With CLIENT_API_PORT, the client API has a listener and worker processes of its
 * own, and the console's workers run at a lower CPU priority. Each listener serves only its
 * side (the other side's routes answer a clear 404), and an owner's change made through the
 * console's port reaches every client-API worker before the owner's answer is back.
 * The real server (main.ts) on PostgreSQL: the split needs more than one process.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('the client API on a port of its own', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'latchkey-client-port-'));
  const serverSecret = randomBytes(32).toString('base64url');
  const sessionToken = randomBytes(32).toString('base64url');
  let dropDatabase: () => Promise<void> = async () => {};
  let database: DatabaseConnection;
  let server: ChildProcess;
  let application: Awaited<ReturnType<typeof insertOwnerSessionAndApplication>>['application'];
  let clientOrigin: string;
  let consoleOrigin: string;

  beforeAll(async () => {
    const empty = await createEmptyPostgresDatabase(
      process.env.TEST_DATABASE_URL!,
      'latchkey_client_port',
    );
    dropDatabase = empty.drop;
    database = await openDatabase({ kind: 'postgres', url: empty.url, poolSize: 2 });
    ({ application } = await insertOwnerSessionAndApplication(database.db, {
      firebaseUid: 'client-port-owner',
      email: 'owner@example.com',
      sessionToken,
      serverSecret,
    }));

    const [consolePort, clientPort] = [await findFreePortBlock(), await findFreePortBlock()];
    consoleOrigin = `http://127.0.0.1:${consolePort}`;
    clientOrigin = `http://127.0.0.1:${clientPort}`;
    server = await startRealServer({
      port: consolePort!,
      dataDir,
      serverSecret,
      firebaseProjectId: 'latchkey-client-port-test',
      env: {
        DATABASE_URL: empty.url,
        CLIENT_API_PORT: String(clientPort),
        CLIENT_API_WORKERS: String(CLIENT_WORKERS),
        WEB_CONCURRENCY: '1',
        CONSOLE_WORKER_NICENESS: String(CONSOLE_NICENESS),
        ...(CONSOLE_CPUS === null ? {} : { CONSOLE_WORKER_CPUS: CONSOLE_CPUS }),
        // Only a notification can explain a worker seeing a change within the hour.
        CLIENT_API_CACHE_TTL_SECONDS: '3600',
      },
    });
    // The console's port answered; the client API's workers may still be starting.
    for (let tries = 0; tries < 300; tries += 1) {
      const health = await fetch(`${clientOrigin}/api/health`).catch(() => null);
      if (health?.ok) break;
      await sleep(100);
    }
  }, 90_000);

  afterAll(async () => {
    if (server?.exitCode === null) server.kill('SIGKILL');
    await database?.close();
    await dropDatabase();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const clientCall = (origin: string, path: string, body: unknown) =>
    fetch(`${origin}/api/v1/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': application.apiKey },
      body: JSON.stringify(body),
    });
  const ownerHeaders = (origin: string) => ({
    cookie: `latchkey_session=${sessionToken}`,
    origin,
  });

  it('serves the client API on CLIENT_API_PORT, signed, and nothing of the console there', async () => {
    const user = await insertAppUserWithPassword(database.db, application.id, PASSWORD);
    const verify = await clientCall(clientOrigin, 'verify', { user_id: user.id });
    expect(verify.status).toBe(200);
    const text = await verify.text();
    expect(JSON.parse(text)).toMatchObject({ success: true, code: 'OK' });
    const message = `${verify.headers.get('x-signature-timestamp')}..${text}`;
    expect(
      verifyApplicationSignature(
        application.signingPublicKey,
        message,
        Buffer.from(verify.headers.get('x-signature-ed25519') ?? '', 'hex'),
      ),
    ).toBe(true);
    expect((await fetch(`${clientOrigin}/api/health`)).status).toBe(200);

    for (const path of [`/api/applications`, '/api/dashboard/stats', '/api/reference']) {
      const refused = await fetch(`${clientOrigin}${path}`, {
        headers: ownerHeaders(clientOrigin),
      });
      expect(refused.status, path).toBe(404);
      expect(await refused.json()).toMatchObject({
        code: 'NOT_FOUND',
        message: expect.stringContaining('the console and the owner API are on PORT'),
      });
    }
    const page = await fetch(`${clientOrigin}/`);
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toContain('application/json');
  });

  it('serves the console and the owner API on PORT, and no client API there', async () => {
    const listed = await fetch(`${consoleOrigin}/api/applications`, {
      headers: ownerHeaders(consoleOrigin),
    });
    expect(listed.status).toBe(200);
    expect(await listed.json()).toEqual([expect.objectContaining({ id: application.id })]);
    expect((await fetch(`${consoleOrigin}/api/health`)).status).toBe(200);

    for (const path of ['verify', 'login', 'session/track']) {
      const refused = await clientCall(consoleOrigin, path, {});
      expect(refused.status, path).toBe(404);
      expect(await refused.json()).toEqual({
        success: false,
        code: 'INVALID_REQUEST',
        message: `Route POST /api/v1/${path} not found: the client API is served on its own port (CLIENT_API_PORT)`,
      });
    }
  });

  it("refuses a user on every client-API worker once the owner's pause through the console is answered", async () => {
    const user = await insertAppUserWithPassword(database.db, application.id, PASSWORD);
    const verifyCode = async () =>
      (
        (await (await clientCall(clientOrigin, 'verify', { user_id: user.id })).json()) as {
          code: string;
        }
      ).code;
    // Every client-API worker (the cluster takes turns) now holds the user's standing.
    for (let i = 0; i < CLIENT_WORKERS * 3; i += 1) expect(await verifyCode()).toBe('OK');

    const paused = await fetch(
      `${consoleOrigin}/api/applications/${application.id}/users/${user.id}/pause`,
      { method: 'POST', headers: ownerHeaders(consoleOrigin) },
    );
    expect(paused.status).toBe(200);
    // At once: the owner's answer waited for every listening worker to drop its cache.
    for (let i = 0; i < CLIENT_WORKERS * 3; i += 1) {
      expect(await verifyCode()).toBe('ACCOUNT_DISABLED');
    }
  });

  it.runIf(process.platform === 'linux')(
    "runs the console's workers, every thread of them, at a lower CPU priority than the client API's, and each side on CPUs of its own",
    () => {
      const workers = workersOf(server.pid!);
      expect(workers.map((worker) => worker.side).sort()).toEqual([
        ...Array.from({ length: CLIENT_WORKERS }, () => 'client-api'),
        'console',
      ]);
      for (const worker of workers) {
        const threads = readdirSync(`/proc/${worker.pid}/task`);
        expect(threads.length).toBeGreaterThan(1);
        for (const thread of threads) {
          expect(nicenessOf(`/proc/${worker.pid}/task/${thread}/stat`), worker.side).toBe(
            worker.side === 'console' ? CONSOLE_NICENESS : 0,
          );
          expect(cpusOf(`/proc/${worker.pid}/task/${thread}/status`), worker.side).toEqual(
            expectedCpus(worker.side === 'console' ? CONSOLE_CPUS : CLIENT_CPUS),
          );
        }
      }
    },
  );

  it.runIf(process.platform === 'linux' && process.getuid?.() === 0)(
    "lowers the console's PostgreSQL backends too, and keeps them to its CPUs, where the server may (root here), and not the client API's",
    async () => {
      // The console worker has used its pool by now (the pause above); the client API's too.
      const { rows } = await database.query({
        text: `select pid, application_name from pg_stat_activity
               where application_name in ('latchkey-console', 'latchkey-client-api')`,
      });
      const sides = new Set(rows.map((row) => row.application_name));
      expect(sides).toEqual(new Set(['latchkey-console', 'latchkey-client-api']));
      for (const row of rows) {
        expect(nicenessOf(`/proc/${String(row.pid)}/stat`), String(row.application_name)).toBe(
          row.application_name === 'latchkey-console' ? CONSOLE_NICENESS : 0,
        );
        // taskset runs a moment after a connection opens (niceness is set at once): a
        // backend the pool opened just now, for a worker's poll, is kept to its CPUs shortly.
        await expect
          .poll(() => cpusOf(`/proc/${String(row.pid)}/status`), {
            message: String(row.application_name),
          })
          .toEqual(
            expectedCpus(row.application_name === 'latchkey-console' ? CONSOLE_CPUS : CLIENT_CPUS),
          );
      }
    },
  );
});
