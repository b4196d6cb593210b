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
//   rounds of BENCH_DURATION (5) seconds after a warm-up, and prints medians, the ratios of the
//   cluster to the single process, and each setting's server CPU per call (every process).
// - The load generator (bench-kit's LOAD_GENERATOR: wrk where installed) shares the machine; the
//   table says what it cost per request, since on two cores that is CPU the cluster's second
//   worker cannot have.
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
  LOAD_GENERATOR,
  median,
  prepareDatabase,
  saturate,
  startChild,
  stopChild,
  waitUntilHealthy,
} from './bench-kit.mjs';
import { canReadCpu, execFileSyncSafe, processCpuUs } from './process-cpu.mjs';

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
    pid: child.pid,
    stop: async () => {
      await stopChild(child);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** CPU time (µs) of a process and its children: the cluster's primary and its workers. */
function processTreeCpuUs(pid) {
  const children = execFileSyncSafe('pgrep', ['-P', String(pid)])
    .split(/\s+/)
    .filter(Boolean);
  return [pid, ...children].reduce((sum, each) => sum + processCpuUs(each), 0);
}

/**
 * One saturation run, in which every request must succeed: it answers requests a second, and
 * per request the server's CPU (every process of the setting) and the load generator's (µs).
 */
async function load(setting, options) {
  const serverBefore = processTreeCpuUs(setting.pid);
  const { rps, total, failures, loadCpuUs } = await saturate({ port: setting.port, ...options });
  const serverUs = processTreeCpuUs(setting.pid) - serverBefore;
  if (failures > 0) throw new Error(`${options.path}: ${failures} failed requests`);
  return { rps, serverUsPerCall: serverUs / total, loadUsPerCall: loadCpuUs / total };
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
      load(settings[setting], { headers: { 'x-api-key': apiKey }, ...calls[call], ...options });

    for (const setting of Object.keys(settings)) {
      for (const call of Object.keys(calls)) {
        log(`Warming up ${call} on the ${setting} setting (${WARM_UP_CALLS} calls)...`);
        // Every worker of the cluster warms up: the port's connections spread over them.
        await run(setting, call, { amount: WARM_UP_CALLS * (setting === 'cluster' ? WORKERS : 1) });
      }
    }

    // Per call, per setting: one measurement a round. The two settings of a call run back to
    // back, so their ratio is taken per round, between adjacent measurements.
    const rounds = Object.fromEntries(
      Object.keys(calls).map((call) => [call, { single: [], cluster: [] }]),
    );
    for (let round = 1; round <= ROUNDS; round += 1) {
      for (const call of Object.keys(calls)) {
        for (const setting of Object.keys(settings)) {
          const measured = await run(setting, call, { duration: DURATION_SECONDS });
          rounds[call][setting].push(measured);
          log(
            `round ${round}: ${call} on ${setting}: ${Math.round(measured.rps)}/s, server ${Math.round(measured.serverUsPerCall)} µs a call, ${LOAD_GENERATOR} ${Math.round(measured.loadUsPerCall)} µs`,
          );
        }
      }
    }

    const us = (value) => (canReadCpu ? `${Math.round(value)} µs` : '—');
    const lines = [
      `Latchkey's compiled server: one process against a cluster of ${WORKERS} workers, ${new Date().toISOString().slice(0, 10)}`,
      `Medians of ${ROUNDS} rounds of ${DURATION_SECONDS} s at saturation, PostgreSQL on this machine, ${availableParallelism()} cores, load from ${LOAD_GENERATOR} on the same cores.`,
      '',
      `| call | 1 process | cluster | cluster / 1 process (per round) | server CPU a call: 1 process, cluster | ${LOAD_GENERATOR}'s CPU a call |`,
      '| --- | --- | --- | --- | --- | --- |',
    ];
    for (const [call, { single: one, cluster: many }] of Object.entries(rounds)) {
      const of = (measurements, key) => median(measurements.map((each) => each[key]));
      const ratios = one.map((each, index) => many[index].rps / each.rps);
      lines.push(
        `| ${call} | ${Math.round(of(one, 'rps'))}/s | ${Math.round(of(many, 'rps'))}/s | ${median(ratios).toFixed(2)}× (${ratios.map((ratio) => ratio.toFixed(2)).join(', ')}) | ${us(of(one, 'serverUsPerCall'))}, ${us(of(many, 'serverUsPerCall'))} | ${us(of([...one, ...many], 'loadUsPerCall'))} |`,
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
