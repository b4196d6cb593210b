#!/usr/bin/env node
// `npm run bench:instructions`: the instructions a request costs the server, counted by
// valgrind's callgrind, for the signed bare route, verify, heartbeat, login and key login.
//
// Why: `npm run bench` measures CPU time, which on a shared two-core VM moves by more than
// most changes to the hot path (two identical servers were measured 90–131 µs apart, round to
// round). An instruction count is the same run after run whatever else the machine does, so
// it tells what our code costs apart from what the machine makes each instruction cost (the
// caches, the kernel's loopback, the hypervisor). The two together say where a gap between
// verify and the signed route lies: in the instructions we run, or in the price of each.
//
// How: each server runs under callgrind (one thread at a time, about 50× slower), is warmed
// up, and then for each call the counters are zeroed, BENCH_REQUESTS requests are sent and the
// counters dumped, per thread. Callgrind counts user-space instructions only (the kernel's
// share of a request is not in these figures). Work the server does on timers runs per second
// of wall-clock time, and a second lasts ~50× longer under callgrind, so each server's idle rate
// (instructions per second with no requests) is measured too and taken off its windows. The
// main thread is the event loop's; "all threads" adds V8's compiler and GC helpers, libuv's pool
// and the database driver's, where timing varies most.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  benchServerEnv,
  hotCallBodies,
  median,
  prepareDatabase,
  startChild,
} from './bench-kit.mjs';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const WARM_UP_REQUESTS = Number(process.env.BENCH_WARM_UP_REQUESTS ?? 6000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
// A login is an argon2id hash (about a second under callgrind): fewer of them; 0 leaves login out.
const LOGIN_REQUESTS = Number(process.env.BENCH_LOGIN_REQUESTS ?? 100);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 10);
const IN_FLIGHT = 4;
const CACHE_SIM = process.env.BENCH_CACHE_SIM === 'yes';

const log = (message) => process.stderr.write(`${message}\n`);

function requireCallgrind() {
  try {
    execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
    execFileSync('callgrind_control', ['-h'], { stdio: 'ignore' });
  } catch {
    log('bench:instructions needs valgrind (Debian: apt-get install valgrind).');
    process.exit(1);
  }
}

/** valgrind and its flags, to run a server under callgrind with its counts in `outDir`. */
function callgrind(outDir) {
  return [
    'valgrind',
    '--tool=callgrind',
    // Only valgrind's errors on stderr (beside the server's own), not its banner.
    '--quiet',
    '--separate-threads=yes',
    // V8 writes the code it runs into anonymous memory: check it for changes there.
    '--smc-check=all-non-file',
    // Simulated first-level and last-level cache misses too (about twice as slow).
    ...(CACHE_SIM ? ['--cache-sim=yes'] : []),
    `--callgrind-out-file=${join(outDir, 'cg.%p')}`,
  ];
}

/** Instructions per thread (thread 1 is the main thread) since the last `zero`. */
function countSince(server, label) {
  execFileSync('callgrind_control', ['-d', label, String(server.child.pid)], { stdio: 'ignore' });
  const prefix = `cg.${server.child.pid}.`;
  let mainThread = 0;
  let allThreads = 0;
  const mainMisses = { l1: 0, ll: 0 };
  for (const name of readdirSync(server.outDir)) {
    if (!name.startsWith(prefix)) continue;
    const path = join(server.outDir, name);
    const text = readFileSync(path, 'utf8');
    rmSync(path);
    // `events: Ir …` names the columns of `summary: …` (more than Ir with the cache simulated).
    const events = /^events: (.+)$/m.exec(text)?.[1].trim().split(/\s+/) ?? ['Ir'];
    const values = /^summary: (.+)$/m.exec(text)?.[1].trim().split(/\s+/).map(Number) ?? [];
    const count = (event) => values[events.indexOf(event)] ?? 0;
    allThreads += count('Ir');
    if (!name.endsWith('-01')) continue;
    mainThread += count('Ir');
    mainMisses.l1 += count('I1mr') + count('D1mr') + count('D1mw');
    mainMisses.ll += count('ILmr') + count('DLmr') + count('DLmw');
  }
  return { mainThread, allThreads, mainMisses };
}

const zero = (server) =>
  execFileSync('callgrind_control', ['-z', String(server.child.pid)], { stdio: 'ignore' });

/**
 * Sends `count` requests, IN_FLIGHT at a time; fails on any answer but 200. The connections
 * are kept from one call to the next: a new socket makes Node's stream code deoptimize and
 * recompile in the server, which would count in the round that opened it.
 */
async function send(target, count) {
  target.agent ??= new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
  const { agent } = target;
  let next = 0;
  const post = (body) =>
    new Promise((resolve, reject) => {
      const request = http.request(
        {
          agent,
          host: '127.0.0.1',
          port: target.server.info.port,
          path: target.path,
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            ...target.headers,
          },
        },
        (response) => {
          response.resume();
          response.on('end', () =>
            response.statusCode === 200
              ? resolve()
              : reject(new Error(`${target.path} answered ${response.statusCode}`)),
          );
        },
      );
      request.on('error', (error) => {
        // A kept connection the server closed as idle (rounds are minutes apart under
        // callgrind) fails on reuse: that request was never taken, so send it again.
        if (request.reusedSocket && error.code === 'ECONNRESET') post(body).then(resolve, reject);
        else reject(error);
      });
      request.end(body);
    });
  const worker = async () => {
    while (next < count) await post(target.bodies[next++ % target.bodies.length]);
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
}

async function idleRate(server) {
  zero(server);
  const startedAt = performance.now();
  await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
  const counted = countSince(server, 'idle');
  const seconds = (performance.now() - startedAt) / 1000;
  return { mainThread: counted.mainThread / seconds, allThreads: counted.allThreads / seconds };
}

async function main() {
  requireCallgrind();
  const database = await prepareDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'latchkey-bench-'));
  const servers = [];
  let targets;
  const start = async (args, env) => {
    const outDir = mkdtempSync(join(tmpdir(), 'latchkey-callgrind-'));
    const server = await startChild(args, env, { wrapper: callgrind(outDir) });
    server.outDir = outDir;
    servers.push(server);
    return server;
  };
  try {
    log('Starting the bare routes and Latchkey under callgrind (a few minutes)...');
    const [bare, latchkey] = await Promise.all([
      start(['bench/bare-server.mjs'], {}),
      start(
        ['--import', 'tsx', 'bench/latchkey-server.ts'],
        benchServerEnv({
          databaseUrl: database.url,
          dataDir,
          BENCH_USERS: '500',
          BENCH_LOCKED_USERS: '10',
          BENCH_REDEEM_KEYS: '10',
          BENCH_KEY_LOGINS: '10',
        }),
      ),
    ]);
    const bodies = hotCallBodies(latchkey.info);
    const apiHeaders = { 'x-api-key': latchkey.info.apiKey };
    targets = {
      signed: { server: bare, path: '/bare-signed', bodies: bodies.verify },
      verify: {
        server: latchkey,
        path: '/api/v1/verify',
        headers: apiHeaders,
        bodies: bodies.verify,
      },
      heartbeat: {
        server: latchkey,
        path: '/api/v1/session/track',
        headers: apiHeaders,
        bodies: bodies.heartbeat,
      },
      login: {
        server: latchkey,
        path: '/api/v1/login',
        headers: apiHeaders,
        bodies: bodies.login,
        requests: LOGIN_REQUESTS,
      },
      // The same writes around no hash: what a login's main thread does when no argon2id runs.
      keyLogin: {
        server: latchkey,
        path: '/api/v1/license/login',
        headers: apiHeaders,
        bodies: bodies.keyLogin,
        requests: LOGIN_REQUESTS,
      },
    };

    log(`Warming up (${WARM_UP_REQUESTS} requests per call)...`);
    await Promise.all([
      send(targets.signed, WARM_UP_REQUESTS),
      (async () => {
        await send(targets.verify, WARM_UP_REQUESTS);
        await send(targets.heartbeat, WARM_UP_REQUESTS);
        if (LOGIN_REQUESTS > 0) await send(targets.login, LOGIN_REQUESTS);
        // Each key's first login creates its user: done here, so the rounds measure logins.
        if (LOGIN_REQUESTS > 0) await send(targets.keyLogin, LOGIN_REQUESTS);
      })(),
    ]);
    log(`Idle rates (${IDLE_SECONDS} s each)...`);
    const idle = new Map();
    const [bareIdle, latchkeyIdle] = await Promise.all([idleRate(bare), idleRate(latchkey)]);
    idle.set(bare, bareIdle);
    idle.set(latchkey, latchkeyIdle);

    const rounds = { signed: [], verify: [], heartbeat: [], login: [], keyLogin: [] };
    for (let round = 1; round <= ROUNDS; round += 1) {
      log(`Round ${round} of ${ROUNDS}...`);
      for (const [name, target] of Object.entries(targets)) {
        if ((name === 'login' || name === 'keyLogin') && LOGIN_REQUESTS === 0) continue;
        const requests = target.requests ?? REQUESTS;
        zero(target.server);
        const startedAt = performance.now();
        await send(target, requests);
        const seconds = (performance.now() - startedAt) / 1000;
        const counted = countSince(target.server, `${name}-${round}`);
        const idleRates = idle.get(target.server);
        rounds[name].push({
          mainThread: counted.mainThread / requests,
          mainThreadBusy: (counted.mainThread - idleRates.mainThread * seconds) / requests,
          allThreads: counted.allThreads / requests,
          allThreadsBusy: (counted.allThreads - idleRates.allThreads * seconds) / requests,
          l1Misses: counted.mainMisses.l1 / requests,
          llMisses: counted.mainMisses.ll / requests,
        });
      }
    }

    const thousands = (value) => `${(value / 1000).toFixed(0)}k`;
    const m = (name, pick) => median(rounds[name].map(pick));
    const lines = [
      `Latchkey instructions per request (callgrind), ${new Date().toISOString().slice(0, 10)}`,
      `${ROUNDS} rounds x ${REQUESTS} requests per call, ${IN_FLIGHT} in flight, after ${WARM_UP_REQUESTS} to warm up (medians; "busy" takes off each server's idle rate, measured over ${IDLE_SECONDS} s)`,
      `Idle: bare routes ${thousands(bareIdle.allThreads)}/s, Latchkey ${thousands(latchkeyIdle.allThreads)}/s (all threads)`,
      '',
      '| call | main thread | main thread, busy | × signed | all threads | all threads, busy | × signed | rounds (main thread, busy) |',
      '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ];
    const signedMain = m('signed', (r) => r.mainThreadBusy);
    const signedAll = m('signed', (r) => r.allThreadsBusy);
    for (const name of ['signed', 'verify', 'heartbeat']) {
      const mainBusy = m(name, (r) => r.mainThreadBusy);
      const allBusy = m(name, (r) => r.allThreadsBusy);
      lines.push(
        `| ${name} | ${thousands(m(name, (r) => r.mainThread))} | ${thousands(mainBusy)} | ${(mainBusy / signedMain).toFixed(2)}× | ${thousands(m(name, (r) => r.allThreads))} | ${thousands(allBusy)} | ${(allBusy / signedAll).toFixed(2)}× | ${rounds[name].map((r) => thousands(r.mainThreadBusy)).join(', ')} |`,
      );
    }
    if (CACHE_SIM) {
      lines.push(
        '',
        "Simulated cache misses per request on the main thread (callgrind's model of this CPU's caches; idle not taken off):",
        '',
        '| call | first-level misses | × signed | last-level misses | × signed |',
        '| --- | --- | --- | --- | --- |',
      );
      const signedL1 = m('signed', (r) => r.l1Misses);
      const signedLl = m('signed', (r) => r.llMisses);
      for (const name of ['signed', 'verify', 'heartbeat']) {
        const l1 = m(name, (r) => r.l1Misses);
        const ll = m(name, (r) => r.llMisses);
        lines.push(
          `| ${name} | ${l1.toFixed(0)} | ${(l1 / signedL1).toFixed(2)}× | ${ll.toFixed(0)} | ${(ll / signedLl).toFixed(2)}× |`,
        );
      }
    }
    // Login: its argon2id hash runs on libuv's pool, the work around it on the main thread.
    if (LOGIN_REQUESTS > 0) {
      const loginMain = m('login', (r) => r.mainThreadBusy);
      const loginOthers = m('login', (r) => r.allThreadsBusy - r.mainThreadBusy);
      lines.push(
        '',
        `Login (${LOGIN_REQUESTS} a round): ${thousands(loginMain)} on the main thread, ${thousands(loginOthers)} on the other threads (the hash), so the main thread's work around the hash is ${((loginMain / loginOthers) * 100).toFixed(1)}% of the hash's instructions.`,
        `Key login (no hash): ${thousands(m('keyLogin', (r) => r.mainThreadBusy))} on the main thread, ${thousands(m('keyLogin', (r) => r.allThreadsBusy))} on all threads.`,
      );
    }
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    for (const target of Object.values(targets ?? {})) target.agent?.destroy();
    for (const server of servers) {
      server.child.kill('SIGTERM');
      if (server.child.exitCode === null) {
        await new Promise((resolve) => server.child.once('exit', resolve));
      }
      rmSync(server.outDir, { recursive: true, force: true });
    }
    rmSync(dataDir, { recursive: true, force: true });
    await database.drop();
  }
}

await main();
