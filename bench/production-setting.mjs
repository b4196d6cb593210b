#!/usr/bin/env node
// `npm run bench:production`: what the whole machine answers in the setting docs/operations.md
// recommends for one machine (the compiled build, NODE_ENV=production, WEB_CONCURRENCY equal to
// the cores, node:cluster sharing the port), against one process of the same build, on the same
// PostgreSQL database, in one sitting.
//
// - Measures dist/ as `npm run build` left it (it builds nothing).
// - Seeds through bench/latchkey-server.ts (the users, sessions and keys `npm run bench` uses),
//   then starts the compiled server twice on that database: WEB_CONCURRENCY=1 and
//   WEB_CONCURRENCY=BENCH_WORKERS (default: the cores).
// - Loads verify and login at saturation, alternating the two settings over BENCH_ROUNDS (3)
//   rounds of BENCH_DURATION (5) seconds after a warm-up, and prints medians and the ratios of
//   the cluster to the single process.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  benchServerEnv,
  freePort,
  hotCallBodies,
  median,
  prepareDatabase,
  saturate,
  startChild,
  stopChild,
  waitUntilHealthy,
} from './bench-kit.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const compiledServer = join(root, 'dist/server/main.js');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 5);
const WORKERS = Number(process.env.BENCH_WORKERS ?? availableParallelism());
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const LOGIN_CONNECTIONS = Number(process.env.BENCH_LOGIN_CONNECTIONS ?? 16);
const WARM_UP_CALLS = Number(process.env.BENCH_WARM_UP_CALLS ?? 3000);
const log = (message) => process.stderr.write(`${message}\n`);

/** The compiled server as production runs it, with `workers` cluster workers. */
async function startCompiled({ databaseUrl, serverSecret, workers }) {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'latchkey-bench-production-'));
  const child = spawn(process.execPath, [compiledServer], {
    cwd: root,
    env: {
      ...process.env,
      ...benchServerEnv({ databaseUrl, dataDir }),
      SERVER_SECRET: serverSecret,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
      // Production refuses the emulator's demo- projects. The client API never calls Firebase,
      // so a project that does not exist costs nothing here.
      FIREBASE_PROJECT_ID: 'latchkey-bench',
      FIREBASE_API_KEY: 'latchkey-bench-unused',
      FIREBASE_AUTH_DOMAIN: 'latchkey-bench.firebaseapp.com',
      WEB_CONCURRENCY: String(workers),
      LOG_FORMAT: 'json',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await waitUntilHealthy(child, `http://127.0.0.1:${port}/api/health`);
  return {
    port,
    stop: async () => {
      await stopChild(child);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** One saturation run, in which every request must succeed: it answers requests a second. */
async function load(options) {
  const { rps, failures } = await saturate(options);
  if (failures > 0) throw new Error(`${options.path}: ${failures} failed requests`);
  return rps;
}

async function main() {
  if (!existsSync(compiledServer)) {
    throw new Error('No compiled server in dist/: run `npm run build` first');
  }
  const database = await prepareDatabase();
  const seedDir = mkdtempSync(join(tmpdir(), 'latchkey-bench-seed-'));
  const serverSecret = randomBytes(32).toString('base64url');
  const running = [];
  try {
    log(`Seeding on PostgreSQL (${database.label})...`);
    const seeder = await startChild(
      ['--import', 'tsx', 'bench/latchkey-server.ts'],
      benchServerEnv({ databaseUrl: database.url, dataDir: seedDir, SERVER_SECRET: serverSecret }),
    );
    running.push({ stop: () => stopChild(seeder.child) });
    const { apiKey } = seeder.info;
    const bodies = hotCallBodies(seeder.info);
    // The seeder's own listener stays idle: only the compiled servers are measured.
    log(`Starting the compiled server: 1 process, and a cluster of ${WORKERS}...`);
    const single = await startCompiled({ databaseUrl: database.url, serverSecret, workers: 1 });
    running.push(single);
    const cluster = await startCompiled({
      databaseUrl: database.url,
      serverSecret,
      workers: WORKERS,
    });
    running.push(cluster);

    const calls = {
      verify: { path: '/api/v1/verify', bodies: bodies.verify, connections: CONNECTIONS },
      login: { path: '/api/v1/login', bodies: bodies.login, connections: LOGIN_CONNECTIONS },
    };
    const settings = { single, cluster };
    const run = (setting, call, options) =>
      load({
        port: settings[setting].port,
        headers: { 'x-api-key': apiKey },
        ...calls[call],
        ...options,
      });

    for (const setting of Object.keys(settings)) {
      for (const call of Object.keys(calls)) {
        log(`Warming up ${call} on the ${setting} setting (${WARM_UP_CALLS} calls)...`);
        // Every worker of the cluster warms up: the port's connections spread over them.
        await run(setting, call, { amount: WARM_UP_CALLS * (setting === 'cluster' ? WORKERS : 1) });
      }
    }

    const rounds = { single: { verify: [], login: [] }, cluster: { verify: [], login: [] } };
    for (let round = 1; round <= ROUNDS; round += 1) {
      for (const call of Object.keys(calls)) {
        for (const setting of Object.keys(settings)) {
          const rps = await run(setting, call, { duration: DURATION_SECONDS });
          rounds[setting][call].push(rps);
          log(`round ${round}: ${call} on ${setting}: ${Math.round(rps)}/s`);
        }
      }
    }

    const lines = [
      `Latchkey's compiled server: one process against a cluster of ${WORKERS} workers, ${new Date().toISOString().slice(0, 10)}`,
      `Medians of ${ROUNDS} rounds of ${DURATION_SECONDS} s at saturation, PostgreSQL on this machine, ${availableParallelism()} cores.`,
      '',
      '| call | 1 process | cluster | cluster / 1 process |',
      '| --- | --- | --- | --- |',
    ];
    for (const call of Object.keys(calls)) {
      const one = median(rounds.single[call]);
      const many = median(rounds.cluster[call]);
      lines.push(
        `| ${call} | ${Math.round(one)}/s | ${Math.round(many)}/s | ${(many / one).toFixed(2)}× |`,
      );
    }
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    for (const child of running.reverse()) await child.stop();
    rmSync(seedDir, { recursive: true, force: true });
    await database.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
