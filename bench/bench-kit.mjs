// What the benchmarks share: a throwaway PostgreSQL database, child processes that report
// on their first stdout line, the hot calls' request bodies, a saturating load, and medians.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { hasWrk, saturateWithWrk } from './wrk-load.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * DATABASE_URL if set, else a throwaway database created on BENCH_DATABASE_URL's server
 * (default: the local CI role), dropped by `drop()`.
 */
export async function prepareDatabase() {
  if (process.env.DATABASE_URL) {
    return { url: process.env.DATABASE_URL, label: 'DATABASE_URL', drop: async () => {} };
  }
  const serverUrl =
    process.env.BENCH_DATABASE_URL ?? 'postgres://latchkey_ci:latchkey_ci@127.0.0.1:5432/postgres';
  const name = `latchkey_bench_${randomBytes(4).toString('hex')}`;
  const run = async (sql) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await run(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    label: `throwaway database ${name}`,
    // An autovacuum worker busy in the database (after a bulk seed) cannot be terminated by a
    // role that is not a superuser: it is asked again once the worker has moved on.
    drop: async () => {
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await run(`drop database if exists ${name} with (force)`);
        } catch (error) {
          if (error?.code !== '42501' || attempt === 120) throw error;
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
      }
    },
  };
}

/**
 * Starts a Node child (in the repository, or in `cwd`; run by `wrapper`, such as valgrind and
 * its flags, if given) and resolves with the JSON it prints on its first stdout line.
 */
export function startChild(args, env = {}, { cwd = root, wrapper = [] } = {}) {
  const [command, ...commandArgs] = [...wrapper, process.execPath, ...args];
  const child = spawn(command, commandArgs, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => {
      try {
        resolve({ child, info: JSON.parse(line) });
      } catch (error) {
        reject(error);
      }
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
}

export function stopChild(child) {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
}

/**
 * The environment of the bench's Latchkey server (bench/latchkey-server.ts): the default
 * configuration on `databaseUrl`, except what a load from one address needs; `overrides` last.
 */
export function benchServerEnv({ databaseUrl, dataDir, ...overrides }) {
  return {
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    SERVER_SECRET: randomBytes(32).toString('base64url'),
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    SERVE_CONSOLE: 'false',
    // One load generator is one IP address: lift the per-IP limit for the run.
    CLIENT_API_IP_LIMIT_PER_MINUTE: '1000000000',
    // Metrics on, as a watched production runs: their per-request cost is in the figures.
    METRICS_TOKEN: randomBytes(24).toString('base64url'),
    ...overrides,
  };
}

/**
 * The request bodies of the hot calls, one per seeded user (or session), from the bench
 * server's first line: the bench and the profiler load the same requests.
 */
export function hotCallBodies({ users, tokens, password, version, loginKeys }) {
  return {
    verify: users.map((user) => JSON.stringify({ user_id: user.id, entitlements: ['PRO'] })),
    heartbeat: tokens.map((token) => JSON.stringify({ action: 'heartbeat', session_token: token })),
    login: users.map((user) => JSON.stringify({ username: user.username, password, version })),
    // A key login (no password): each key's first login creates its user, later ones log in.
    keyLogin: loginKeys.map((key, index) =>
      JSON.stringify({ license_key: key, hwid: `bench-hwid-${index}`, version }),
    ),
  };
}

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** A port free on loopback right now (the OS picks it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Polls `url` until it answers 200; fails if `child` exits first or a minute passes. */
export async function waitUntilHealthy(child, url) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer within a minute`);
}

/**
 * Runs `use` with the first line of bench/owner-app-server.ts (its port, a console session and
 * an application) on a fresh PGlite directory, or on a throwaway PostgreSQL database when
 * `kind` is `postgres`; stops the server and drops both afterwards, however `use` ends.
 */
export async function withOwnerAppServer(kind, use) {
  const dataDir = mkdtempSync(join(tmpdir(), 'latchkey-owner-bench-'));
  const database = kind === 'postgres' ? await prepareDatabase() : null;
  let server;
  try {
    process.stderr.write(
      `Starting Latchkey on ${database ? `PostgreSQL (${database.label})` : 'PGlite'}...\n`,
    );
    server = await startChild(['--import', 'tsx', 'bench/owner-app-server.ts'], {
      ...(database ? { DATABASE_URL: database.url } : {}),
      DATA_DIR: dataDir,
      SERVER_SECRET: randomBytes(32).toString('base64url'),
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      SERVE_CONSOLE: 'false',
    });
    return await use(server.info);
  } finally {
    if (server) await stopChild(server.child);
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Says on stderr how many of a load's requests failed, if any did. */
export function warnOfFailures(path, { non2xx = 0, errors = 0, timeouts = 0 }) {
  if (non2xx > 0 || errors > 0 || timeouts > 0) {
    process.stderr.write(
      `  warning: ${path}: ${non2xx} non-2xx, ${errors} errors, ${timeouts} timeouts\n`,
    );
  }
}

/**
 * The saturating load's generator: wrk (a C program, `apt-get install wrk`) where installed,
 * else autocannon in this process; BENCH_LOAD_GENERATOR chooses. On a machine whose cores the
 * load shares with the server and the database, what the generator spends per request is CPU
 * they cannot have: autocannon spends a few times what wrk does.
 */
export const LOAD_GENERATOR = process.env.BENCH_LOAD_GENERATOR ?? (hasWrk() ? 'wrk' : 'autocannon');
if (!['wrk', 'autocannon'].includes(LOAD_GENERATOR)) {
  throw new Error(`BENCH_LOAD_GENERATOR is wrk or autocannon, not ${LOAD_GENERATOR}`);
}

/**
 * Saturation: each connection sends its next request as soon as the last is answered, for
 * `duration` seconds or `amount` requests (a warm-up). Bodies rotate (from `cursor`, shared by
 * runs that must not reuse one) so every request names another user. Failed requests are
 * counted and warned of; a caller that needs every one to succeed checks `failures`. Answers
 * requests a second, the total, p50 and p99 (ms), and the generator's CPU (`loadCpuUs`).
 * Timed runs go through LOAD_GENERATOR; warm-ups of a number of requests and paced runs
 * (`rate`) through autocannon, which has both. (Latency at a fixed rate is paced-load.mjs's.)
 */
export async function saturate(options) {
  if (LOAD_GENERATOR === 'wrk' && options.amount === undefined && options.rate === undefined) {
    const result = await saturateWithWrk(options);
    warnOfFailures(options.path, result);
    return result;
  }
  return saturateWithAutocannon(options);
}

/** One autocannon run from this process; its CPU is this process's meanwhile. */
async function saturateWithAutocannon({
  port,
  path,
  headers = {},
  bodies,
  connections,
  duration,
  amount,
  cursor = { next: 0 },
  rate,
}) {
  const cpuBefore = process.cpuUsage();
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    // Paced instead of saturating: this many requests a second over all connections.
    ...(rate === undefined ? {} : { overallRate: rate }),
    ...(amount === undefined ? { duration } : { amount }),
    requests: [
      {
        method: 'POST',
        path,
        headers: { 'content-type': 'application/json', ...headers },
        setupRequest: (request) => {
          request.body = bodies[cursor.next++ % bodies.length];
          return request;
        },
      },
    ],
  });
  const cpu = process.cpuUsage(cpuBefore);
  const { non2xx = 0, errors = 0, timeouts = 0 } = result;
  warnOfFailures(path, result);
  return {
    rps: result.requests.average,
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: non2xx + errors + timeouts,
    loadCpuUs: cpu.user + cpu.system,
  };
}
