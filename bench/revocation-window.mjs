#!/usr/bin/env node
// `npm run bench:revocation`: how long after the owner's answer to a pause another instance
// still accepts the paused user's heartbeat. The aim is none: the owner is answered once every
// listening instance has the change (or a bound on the wait has passed).
//
// Two real servers (apps/server/src/main.ts under tsx) on one PostgreSQL database: DATABASE_URL
// if set, else a throwaway database on BENCH_DATABASE_URL's server (bench-kit.mjs). Each run:
// unpause the user and log in (a pause ends the user's sessions), start a session on the
// first, warm the second's caches with two heartbeats, pause the user through the first's
// owner API (timed), wait 0-5 ms after its 200 (run number mod 6), then send one heartbeat
// to the second. An 'OK' there is a heartbeat accepted after the owner was told "paused".
//
// REVOCATION_RUNS (30) sets the number of runs. LATCHKEY_ROOT runs the servers of another
// checkout (a worktree of an earlier commit), so before and after come from one sitting.
import { createHash, randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { median, prepareDatabase, stopChild } from './bench-kit.mjs';

const RUNS = Number(process.env.REVOCATION_RUNS ?? 30);
const here = fileURLToPath(new URL('..', import.meta.url));
const serverRoot = resolve(process.env.LATCHKEY_ROOT ?? here);
const log = (message) => process.stderr.write(`${message}\n`);

async function startServer({ port, databaseUrl, dataDir, serverSecret }) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: serverRoot,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      SERVER_SECRET: serverSecret,
      FIREBASE_PROJECT_ID: 'latchkey-revocation-bench',
      FIREBASE_API_KEY: 'unused',
      FIREBASE_AUTH_DOMAIN: 'unused.example.com',
      SERVE_CONSOLE: 'false',
      // An hour: only the notification can explain the second instance refusing.
      CLIENT_API_CACHE_TTL_SECONDS: '3600',
      CLIENT_API_IP_LIMIT_PER_MINUTE: '100000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return child;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error('server did not become healthy');
}

const percentile = (values, fraction) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))];
};

async function main() {
  const database = await prepareDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'latchkey-revocation-'));
  const serverSecret = randomBytes(32).toString('base64url');
  const ports = [5601 + Math.floor(Math.random() * 300) * 2];
  ports.push(ports[0] + 1);
  const children = [];
  try {
    log(`servers of ${serverRoot} on ${database.label}`);
    children.push(
      await startServer({ port: ports[0], databaseUrl: database.url, dataDir, serverSecret }),
    );
    children.push(
      await startServer({ port: ports[1], databaseUrl: database.url, dataDir, serverSecret }),
    );

    // The owner and their console session, as a sign-in leaves them.
    const sessionToken = randomBytes(32).toString('base64url');
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const {
      rows: [owner],
    } = await client.query(
      `insert into owner_accounts (firebase_uid, email, role) values ($1, 'bench@example.com', 'owner') returning id`,
      [`revocation-${randomBytes(4).toString('hex')}`],
    );
    await client.query(
      `insert into owner_sessions (account_id, token_hash, expires_at) values ($1, $2, now() + interval '1 hour')`,
      [owner.id, createHash('sha256').update(sessionToken).digest('hex')],
    );
    await client.end();

    const first = `http://127.0.0.1:${ports[0]}`;
    const second = `http://127.0.0.1:${ports[1]}`;
    const owned = async (method, path, body) => {
      const response = await fetch(`${first}${path}`, {
        method,
        headers: {
          'content-type': 'application/json',
          cookie: `latchkey_session=${sessionToken}`,
          'x-account-id': owner.id,
          origin: first,
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      if (!response.ok)
        throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
      return response.json();
    };
    const application = await owned('POST', '/api/applications', { name: 'Revocation' });
    const password = 'revocation bench password';
    const user = await owned('POST', `/api/applications/${application.id}/users`, {
      username: 'revocation-user',
      password,
    });
    const clientApi = async (origin, path, body) => {
      const response = await fetch(`${origin}/api/v1/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': application.apiKey },
        body: JSON.stringify(body),
      });
      return response.json();
    };

    const accepted = [];
    const pauseMs = [];
    for (let run = 0; run < RUNS; run += 1) {
      const delayMs = run % 6;
      await owned('POST', `/api/applications/${application.id}/users/${user.id}/unpause`);
      const login = await clientApi(first, 'login', {
        username: 'revocation-user',
        password,
        version: application.version,
      });
      if (login.code !== 'OK') throw new Error(`login: ${JSON.stringify(login)}`);
      const token = login.session_token;
      const start = await clientApi(first, 'session/track', {
        action: 'start',
        user_id: user.id,
        session_token: token,
      });
      if (start.code !== 'OK') throw new Error(`start: ${JSON.stringify(start)}`);
      const heartbeat = { action: 'heartbeat', session_token: token };
      for (let warm = 0; warm < 2; warm += 1) {
        const warmed = await clientApi(second, 'session/track', heartbeat);
        if (warmed.code !== 'OK') throw new Error(`warm heartbeat: ${JSON.stringify(warmed)}`);
      }

      const startedAt = performance.now();
      await owned('POST', `/api/applications/${application.id}/users/${user.id}/pause`);
      pauseMs.push(performance.now() - startedAt);
      if (delayMs > 0) {
        const until = performance.now() + delayMs;
        while (performance.now() < until) {
          // A busy wait: a timer's own lateness would blur a delay of one millisecond.
        }
      }
      const after = await clientApi(second, 'session/track', heartbeat);
      if (after.code === 'OK') accepted.push(delayMs);
    }

    const byDelay = [0, 1, 2, 3, 4, 5].map((delay) => {
      const runs = Array.from({ length: RUNS }, (_, run) => run % 6).filter((d) => d === delay);
      return `${delay} ms: ${accepted.filter((d) => d === delay).length}/${runs.length}`;
    });
    const result = {
      serverRoot,
      runs: RUNS,
      acceptedAfterPause: accepted.length,
      acceptedByDelay: byDelay.join(', '),
      pauseAnswerMs: {
        median: Number(median(pauseMs).toFixed(2)),
        p95: Number(percentile(pauseMs, 0.95).toFixed(2)),
        max: Number(Math.max(...pauseMs).toFixed(2)),
      },
    };
    console.log(JSON.stringify(result, null, 2));
  } finally {
    await Promise.all(children.map(stopChild));
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
