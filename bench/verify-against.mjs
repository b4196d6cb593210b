#!/usr/bin/env node
// `npm run bench:against -- <commit>` (also `bench:verify-against`): verify's, heartbeat's and
// login's throughput here against another commit's, in one sitting: a change to the hot path
// keeps each within 5% of before (verify also with the entitlement fields asked).
//
// - Checks the other commit out into a temporary git worktree, with this checkout's
//   node_modules hard-linked into it (the commits must share their dependencies).
// - Starts both commits' bench/latchkey-server.ts on throwaway PostgreSQL databases, side by
//   side, and loads POST /api/v1/verify on each in turn (VERIFY_AB_ROUNDS rounds, 6 s each,
//   50 connections), so drift of the shared machine falls on both alike. Each round starts
//   with the next variant (a load's aftermath falls on whichever runs after it), and each
//   load also reads its server's CPU time from /proc: CPU per request moves far less than
//   throughput when something else shares the machine.
// - Here, verify is measured twice: without and with `entitlements: ["PRO"]` in the request
//   (this commit's bench users hold a plan granting PRO). The other commit's users are loaded
//   as its own bench server seeds them.
// - Then heartbeat, on the sessions each bench server starts for its users.
// - Then login, LOGIN_CONNECTIONS at a time: the same users and password on both commits, and
//   here also a login under HWID lock from a bound device (the device path), when this
//   commit's bench server seeds one.
// - BENCH_REQUIRE_VERIFIED_EMAIL=1: this commit's application requires verified addresses
//   (its users have confirmed theirs), so the figures are the setting on against before.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { benchServerEnv, median, prepareDatabase, startChild, stopChild } from './bench-kit.mjs';
import { canReadCpu, processCpuUs } from './process-cpu.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = Number(process.env.VERIFY_AB_ROUNDS ?? 5);
const DURATION_SECONDS = 6;
const CONNECTIONS = 50;
/** Logins are argon2id-bound: a few in flight saturate the two cores. */
const LOGIN_CONNECTIONS = 4;
const log = (message) => process.stderr.write(`${message}\n`);

const before = process.argv[2];
if (!before) {
  log('Usage: npm run bench:verify-against -- <commit>');
  process.exit(2);
}

async function startServer(cwd, database, dataDir, extraEnv = {}) {
  return startChild(
    ['--import', 'tsx', 'bench/latchkey-server.ts'],
    benchServerEnv({
      databaseUrl: database.url,
      dataDir,
      // The same secrets for both servers: the two differ only in their code.
      SERVER_SECRET: 'bench-'.repeat(8),
      METRICS_TOKEN: 'bench-metrics-'.repeat(3),
      BENCH_REDEEM_KEYS: '10',
      BENCH_KEY_LOGINS: '10',
      ...extraEnv,
    }),
    { cwd },
  );
}

function load(
  { info },
  { path, apiKey = info.apiKey, connections = CONNECTIONS },
  bodies,
  duration,
) {
  let next = 0;
  return autocannon({
    url: `http://127.0.0.1:${info.port}`,
    connections,
    duration,
    requests: [
      {
        method: 'POST',
        path,
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
        setupRequest: (request) => {
          request.body = bodies[next++ % bodies.length];
          return request;
        },
      },
    ],
  });
}

async function main() {
  const scratch = mkdtempSync(join(tmpdir(), 'latchkey-verify-against-'));
  const worktree = join(scratch, 'before');
  const databases = [];
  const servers = [];
  try {
    log(`Checking ${before} out into ${worktree}...`);
    execFileSync('git', ['worktree', 'add', '--detach', worktree, before], { cwd: root });
    execFileSync('cp', ['-al', join(root, 'node_modules'), join(worktree, 'node_modules')]);
    for (const [name, cwd] of [
      ['before', worktree],
      ['after', root],
    ]) {
      const database = await prepareDatabase();
      databases.push(database);
      log(`Starting ${name} on ${database.label}...`);
      // BENCH_REQUIRE_VERIFIED_EMAIL=1 seeds this commit's users as confirmed under an
      // application that requires it: the check's cost against the commit before it.
      const extraEnv =
        name === 'after' && process.env.BENCH_REQUIRE_VERIFIED_EMAIL
          ? { BENCH_REQUIRE_VERIFIED_EMAIL: process.env.BENCH_REQUIRE_VERIFIED_EMAIL }
          : {};
      servers.push(await startServer(cwd, database, join(scratch, `data-${name}`), extraEnv));
    }
    const [beforeServer, afterServer] = servers;
    const verify = { path: '/api/v1/verify' };
    const verifyBodies = (server, extra) =>
      server.info.users.map((user) => JSON.stringify({ user_id: user.id, ...extra }));
    const heartbeat = { path: '/api/v1/session/track' };
    const heartbeatBodies = (server) =>
      server.info.tokens.map((token) =>
        JSON.stringify({ action: 'heartbeat', session_token: token }),
      );
    const login = { path: '/api/v1/login', connections: LOGIN_CONNECTIONS };
    const loginBodies = (server) =>
      server.info.users.map((user) =>
        JSON.stringify({
          username: user.username,
          password: server.info.password,
          version: server.info.version,
        }),
      );
    const tables = [
      {
        name: 'verify',
        connections: CONNECTIONS,
        variants: [
          {
            label: `before (${before})`,
            server: beforeServer,
            call: verify,
            bodies: verifyBodies(beforeServer, {}),
          },
          {
            label: 'here, no entitlements asked',
            server: afterServer,
            call: verify,
            bodies: verifyBodies(afterServer, {}),
          },
          {
            label: 'here, entitlements: ["PRO"]',
            server: afterServer,
            call: verify,
            bodies: verifyBodies(afterServer, { entitlements: ['PRO'] }),
          },
        ],
      },
      {
        // Like verify: within 5% of before, measured in the same sitting.
        name: 'heartbeat',
        connections: CONNECTIONS,
        variants: [beforeServer, afterServer].map((server, index) => ({
          label: index === 0 ? `before (${before})` : 'here',
          server,
          call: heartbeat,
          bodies: heartbeatBodies(server),
        })),
      },
      {
        name: 'login',
        connections: LOGIN_CONNECTIONS,
        variants: [
          {
            label: `before (${before})`,
            server: beforeServer,
            call: login,
            bodies: loginBodies(beforeServer),
          },
          { label: 'here', server: afterServer, call: login, bodies: loginBodies(afterServer) },
          ...(afterServer.info.locked
            ? [
                {
                  label: 'here, HWID lock, a bound device',
                  server: afterServer,
                  call: { ...login, apiKey: afterServer.info.locked.apiKey },
                  bodies: afterServer.info.locked.users.map((user) =>
                    JSON.stringify({
                      username: user.username,
                      password: afterServer.info.password,
                      version: afterServer.info.version,
                      hwid: user.hwid,
                    }),
                  ),
                },
              ]
            : []),
        ],
      },
    ];
    const lines = [];
    for (const table of tables) {
      const { variants } = table;
      for (const variant of variants) {
        const check = await load(variant.server, variant.call, variant.bodies.slice(0, 1), 1);
        if (check.non2xx > 0) throw new Error(`${variant.label}: ${table.name} answered non-2xx`);
        variant.results = [];
        variant.cpuPerRequest = [];
      }
      log(`Warming up ${table.name}...`);
      for (const variant of variants) await load(variant.server, variant.call, variant.bodies, 3);
      for (let round = 1; round <= ROUNDS; round += 1) {
        // Each round starts with the next variant: a load's aftermath (its counters' flush, a
        // collection) falls on whichever runs after it, so no variant may always follow
        // the same one.
        const order = variants.map((_, index) => variants[(index + round - 1) % variants.length]);
        for (const variant of order) {
          const pid = variant.server.child.pid;
          const cpuBefore = canReadCpu ? processCpuUs(pid) : 0;
          const result = await load(variant.server, variant.call, variant.bodies, DURATION_SECONDS);
          if (result.non2xx > 0 || result.errors > 0) {
            throw new Error(`${variant.label}: ${result.non2xx} non-2xx, ${result.errors} errors`);
          }
          variant.results.push(result.requests.average);
          if (canReadCpu) {
            variant.cpuPerRequest.push(
              (processCpuUs(pid) - cpuBefore) / Math.max(1, result.requests.total),
            );
          }
        }
        log(
          `${table.name} round ${round} of ${ROUNDS}: ${variants.map((v) => `${v.label} ${v.results.at(-1).toFixed(0)}/s`).join(', ')}`,
        );
      }
      const baseline = median(variants[0].results);
      const cpuBaseline = canReadCpu ? median(variants[0].cpuPerRequest) : 0;
      lines.push(
        `${table.name} against ${before}, ${ROUNDS} rounds x ${DURATION_SECONDS} s in rotating order, ${table.connections} connections`,
        '',
        `| ${table.name} | req/s per round | median | against before | server CPU per request (µs, median) | CPU against before |`,
        '| --- | --- | --- | --- | --- | --- |',
        ...variants.map((variant) => {
          const value = median(variant.results);
          const cpu = canReadCpu ? median(variant.cpuPerRequest) : null;
          const cpuColumns =
            cpu === null
              ? '— | —'
              : `${cpu.toFixed(1)} | ${((cpu / cpuBaseline) * 100).toFixed(1)}%`;
          return `| ${variant.label} | ${variant.results.map((r) => r.toFixed(0)).join(', ')} | ${value.toFixed(0)} | ${((value / baseline) * 100).toFixed(1)}% | ${cpuColumns} |`;
        }),
        '',
      );
    }
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    for (const server of servers) await stopChild(server.child);
    for (const database of databases) await database.drop();
    try {
      execFileSync('git', ['worktree', 'remove', '--force', worktree], { cwd: root });
    } catch {
      // Never added (a bad commit): nothing to remove.
    }
    rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
