#!/usr/bin/env node
// `npm run bench`: the client API's hot paths under load, each beside its ceiling measured in
// the same run (this machine is shared and noisy: only figures from one run compare).
//
// - Starts Latchkey (bench/latchkey-server.ts) on PostgreSQL: DATABASE_URL if set, else a
//   throwaway database created on BENCH_DATABASE_URL's server (default: the local CI role)
//   and dropped afterwards. The per-IP limit is raised for the run (one load generator is
//   one IP); logins are successful ones spread over many users, so the failed-login
//   throttle never applies.
// - Starts a bare Fastify route (bench/bare-server.mjs): the ceiling for verify and heartbeat;
//   and beside it the same route with an Ed25519-signed answer, which shows what signing alone
//   costs (every client API answer is signed).
// - Measures argon2id hashes a second (bench/hash-limit.ts): the ceiling for login.
// - Loads each, interleaved over BENCH_ROUNDS rounds (at saturation from wrk where installed,
//   else autocannon: bench-kit's LOAD_GENERATOR), and prints the medians: requests a second at
//   saturation, p50/p99 at a fixed 1,000 a second.
// - Licensing: every user holds a plan with entitlements and verify asks for one of them; a
//   key redemption (password checked, so argon2id-bound like login) and a key login (each key
//   used once before, so its user exists) are measured beside login in each round.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import {
  benchServerEnv,
  hotCallBodies,
  LOAD_GENERATOR,
  median,
  prepareDatabase,
  saturate,
  startChild,
  stopChild,
  warnOfFailures,
} from './bench-kit.mjs';
import { loadAtFixedRate } from './paced-load.mjs';
import { canReadCpu, postgresPids, processCpuUs, processTimesUs } from './process-cpu.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/**
 * taskset CPU lists: the servers and the argon2id ceiling on BENCH_SERVER_CPUS; this load
 * generator and a local PostgreSQL on BENCH_LOAD_CPUS. Unset: any CPU.
 */
const SERVER_CPUS = process.env.BENCH_SERVER_CPUS || null;
const LOAD_CPUS = process.env.BENCH_LOAD_CPUS || null;
/** Started under taskset, so the server's availableParallelism() (one hash per core) sees it. */
const ON_SERVER_CPUS = SERVER_CPUS === null ? [] : ['taskset', '-c', SERVER_CPUS];
function keepToCpus(pid, cpus) {
  if (cpus !== null) execFileSync('taskset', ['-a', '-p', '-c', cpus, String(pid)]);
}
/**
 * A local PostgreSQL's processes (the postmaster, whose new backends inherit it, and those
 * running) onto `cpus`; back onto every CPU when the run ends.
 */
function keepPostgresToCpus(cpus) {
  for (const pid of postgresPids()) {
    try {
      keepToCpus(pid, cpus);
    } catch {
      // a backend that ended meanwhile
    }
  }
}
const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const LOGIN_CONNECTIONS = Number(process.env.BENCH_LOGIN_CONNECTIONS ?? 16);
/** Calls of login and of key login before the rounds (a minute of logins here). */
const LOGIN_WARM_UP_CALLS = Number(process.env.BENCH_LOGIN_WARM_UP_CALLS ?? 6000);
const FIXED_RATE = 1000;
const FIXED_RATE_CONNECTIONS = 20;
// The targets: verify and heartbeat against the signed bare route (every client-API answer is
// signed): server CPU per request ≤ 1.25× its, throughput ≥ 80%; their p99 at a fixed rate ≤
// 2× the bare route's; login ≥ 90% of argon2id hashes a second.
const TARGETS = { serverCpu: 1.25, throughput: 0.8, p99: 2, login: 0.9, againstLogin: 0.9 };
/** The calls measured against login's throughput, at login's concurrency. */
const LICENSED = ['redeem', 'keyLogin'];
/**
 * KeyAuth's client libraries' calls (/api/1.2/), set against their v1 twins' server CPU: check
 * (a validated session) against verify and heartbeat, login against login; target ≤ 1.3×.
 */
const KEYAUTH_TARGET = 1.3;
const KEYAUTH_CHECK_SESSIONS = Number(process.env.BENCH_KEYAUTH_SESSIONS ?? 400);
const KEYAUTH_LOGIN_WARM_UP_CALLS = Number(process.env.BENCH_KEYAUTH_WARM_UP_CALLS ?? 3000);
/** Sessions opened by init for KeyAuth's logins: one each, as a program logs in once a run. */
const KEYAUTH_LOGINS = Number(process.env.BENCH_KEYAUTH_LOGINS ?? 6000);
/**
 * `1`: the bench server's plan has a usage meter (login and verify then answer it), and each
 * round also measures meters/exports/use at saturation, one unit a call over every session.
 */
const METERS = process.env.BENCH_METERS === '1';
/** The paths measured against the bare routes, in the order each round runs them. */
const SERVED = ['bare', 'signed', 'verify', 'heartbeat'];

const log = (message) => process.stderr.write(`${message}\n`);

async function runNode(args, env, options) {
  const { child, info } = await startChild(args, env, options);
  await new Promise((resolve) =>
    child.exitCode !== null ? resolve() : child.once('exit', resolve),
  );
  return info;
}

/** Saturation at this run's BENCH_DURATION unless a duration or an amount is given. */
const load = (options) => saturate({ duration: DURATION_SECONDS, ...options });

/**
 * CPU time (µs) of the server process and all PostgreSQL processes, read from /proc around a
 * measurement: where a request's cost goes (the load generator's own comes with its result).
 * Linux only; elsewhere the CPU table is left out.
 */
function cpuSnapshot(serverPid) {
  const postgres = new Map();
  for (const pid of postgresPids()) {
    postgres.set(pid, processCpuUs(pid));
  }
  const server = processTimesUs(serverPid);
  return {
    server: server.user + server.kernel,
    // The kernel's share (system time): on loopback it includes delivering each answer to the
    // load generator. `npm run bench:instructions` counts the user-space part's instructions.
    serverKernel: server.kernel,
    // The main thread alone (its task id is the process id): for login, the work around the
    // argon2id hash, which runs on the libuv pool's threads.
    serverMainThread: processCpuUs(serverPid, `/proc/${serverPid}/task/${serverPid}/stat`),
    postgres,
  };
}
async function measureCpu(serverPid, run) {
  if (!canReadCpu) return { ...(await run()), cpu: null };
  const before = cpuSnapshot(serverPid);
  const result = await run();
  const after = cpuSnapshot(serverPid);
  // Per backend: one that started meanwhile counts whole; one that ended is not seen.
  let postgres = 0;
  for (const [pid, used] of after.postgres) postgres += used - (before.postgres.get(pid) ?? 0);
  const perRequest = (used) => used / Math.max(1, result.total);
  return {
    ...result,
    cpu: {
      server: perRequest(after.server - before.server),
      serverMainThread: perRequest(after.serverMainThread - before.serverMainThread),
      serverKernel: perRequest(after.serverKernel - before.serverKernel),
      postgres: perRequest(postgres),
      loadGenerator: perRequest(result.loadCpuUs),
    },
  };
}

async function main() {
  const database = await prepareDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'latchkey-bench-'));
  let latchkey;
  let bare;
  try {
    log(`Starting Latchkey on PostgreSQL (${database.label}) and the bare route...`);
    latchkey = await startChild(
      ['--import', 'tsx', 'bench/latchkey-server.ts'],
      benchServerEnv({ databaseUrl: database.url, dataDir }),
      { wrapper: ON_SERVER_CPUS },
    );
    bare = await startChild(['bench/bare-server.mjs'], {}, { wrapper: ON_SERVER_CPUS });
    // The load generator may be set apart where the two cores make it the bottleneck: the
    // servers on BENCH_SERVER_CPUS; this process and PostgreSQL on BENCH_LOAD_CPUS, as on a
    // machine where the database and the clients are elsewhere.
    keepToCpus(process.pid, LOAD_CPUS);
    if (LOAD_CPUS !== null) keepPostgresToCpus(LOAD_CPUS);
    const { port, apiKey, password, users, redeemKeys } = latchkey.info;
    const apiHeaders = { 'x-api-key': apiKey };
    const {
      verify: verifyBodies,
      heartbeat: heartbeatBodies,
      login: loginBodies,
      keyLogin: keyLoginBodies,
    } = hotCallBodies(latchkey.info);
    const meterBodies = latchkey.info.tokens.map((token) =>
      JSON.stringify({ session_token: token, amount: 1 }),
    );
    // One use each: the last key is the check below's, the rest are redeemed in turn.
    const redeemBodies = redeemKeys.map((key, index) => {
      const user = users[index % users.length];
      return JSON.stringify({ username: user.username, password, license_key: key });
    });

    // Each measured call must be a success, or the figures would measure refusals.
    for (const [path, body] of [
      ['/api/v1/verify', verifyBodies[0]],
      ['/api/v1/session/track', heartbeatBodies[0]],
      ['/api/v1/login', loginBodies[0]],
      ['/api/v1/license/redeem', redeemBodies.pop()],
      ['/api/v1/license/login', keyLoginBodies[0]],
      ...(METERS ? [['/api/v1/meters/exports/use', meterBodies[0]]] : []),
    ]) {
      const response = await fetch(`http://127.0.0.1:${port}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...apiHeaders },
        body,
      });
      const answer = await response.json();
      if (!answer.success) throw new Error(`${path} is not succeeding: ${JSON.stringify(answer)}`);
    }

    const targets = {
      bare: { port: bare.info.port, path: '/bare', bodies: verifyBodies, pid: bare.child.pid },
      signed: {
        port: bare.info.port,
        path: '/bare-signed',
        bodies: verifyBodies,
        pid: bare.child.pid,
      },
      verify: {
        port,
        path: '/api/v1/verify',
        headers: apiHeaders,
        bodies: verifyBodies,
        pid: latchkey.child.pid,
      },
      heartbeat: {
        port,
        pid: latchkey.child.pid,
        path: '/api/v1/session/track',
        headers: apiHeaders,
        bodies: heartbeatBodies,
      },
      login: {
        port,
        path: '/api/v1/login',
        headers: apiHeaders,
        bodies: loginBodies,
        pid: latchkey.child.pid,
      },
      redeem: {
        port,
        path: '/api/v1/license/redeem',
        headers: apiHeaders,
        bodies: redeemBodies,
        pid: latchkey.child.pid,
        // Shared by every run: a key redeemed once would be refused (LICENSE_USED) the next time.
        cursor: { next: 0 },
      },
      keyLogin: {
        port,
        path: '/api/v1/license/login',
        headers: apiHeaders,
        bodies: keyLoginBodies,
        pid: latchkey.child.pid,
      },
      meterUse: {
        port,
        path: '/api/v1/meters/exports/use',
        headers: apiHeaders,
        bodies: meterBodies,
        pid: latchkey.child.pid,
      },
    };
    const assertKeysLeft = () => {
      if (targets.redeem.cursor.next > redeemBodies.length) {
        throw new Error('every key was redeemed before the run ended: raise BENCH_REDEEM_KEYS');
      }
      if (targets.keyauthLogin && targets.keyauthLogin.cursor.next > KEYAUTH_LOGINS) {
        throw new Error('every KeyAuth session was logged in: raise BENCH_KEYAUTH_LOGINS');
      }
    };

    // A key's first login creates its user; the runs measure the logins after that.
    log(`Creating the users of ${keyLoginBodies.length} keys (first key logins)...`);
    await Promise.all(
      Array.from({ length: LOGIN_CONNECTIONS }, async (_, worker) => {
        for (let index = worker; index < keyLoginBodies.length; index += LOGIN_CONNECTIONS) {
          const response = await fetch(`http://127.0.0.1:${port}/api/v1/license/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...apiHeaders },
            body: keyLoginBodies[index],
          });
          const answer = await response.json();
          if (!answer.success)
            throw new Error(`a first key login failed: ${JSON.stringify(answer)}`);
        }
      }),
    );

    // KeyAuth's calls: a pool of sessions opened by init and validated by a login (check's),
    // and one opened by init alone per user (login's, each login replacing the last).
    log(
      `Opening ${KEYAUTH_CHECK_SESSIONS} KeyAuth sessions for check, ${KEYAUTH_LOGINS} for login...`,
    );
    const keyauthForm = (fields) =>
      new URLSearchParams({
        ...fields,
        name: latchkey.info.keyauth.name,
        ownerid: latchkey.info.keyauth.ownerId,
      }).toString();
    const keyauthCall = async (fields) => {
      const response = await fetch(`http://127.0.0.1:${port}/api/1.2/`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: keyauthForm(fields),
      });
      const answer = await response.json();
      if (!answer.success) throw new Error(`KeyAuth ${fields.type}: ${JSON.stringify(answer)}`);
      return answer;
    };
    const openKeyauthSession = async () =>
      (await keyauthCall({ type: 'init', ver: latchkey.info.version, hash: '', enckey: 'bench' }))
        .sessionid;
    const checkSessions = [];
    await Promise.all(
      Array.from({ length: LOGIN_CONNECTIONS }, async (_, worker) => {
        for (let index = worker; index < KEYAUTH_CHECK_SESSIONS; index += LOGIN_CONNECTIONS) {
          const sessionid = await openKeyauthSession();
          const user = users[index % users.length];
          await keyauthCall({
            type: 'login',
            sessionid,
            username: user.username,
            pass: password,
            hwid: '',
          });
          checkSessions.push(sessionid);
        }
      }),
    );
    const keyauthCheckBodies = checkSessions.map((sessionid) =>
      keyauthForm({ type: 'check', sessionid }),
    );
    const keyauthLoginBodies = [];
    await Promise.all(
      Array.from({ length: LOGIN_CONNECTIONS }, async (_, worker) => {
        for (let index = worker; index < KEYAUTH_LOGINS; index += LOGIN_CONNECTIONS) {
          const sessionid = await openKeyauthSession();
          const user = users[index % users.length];
          keyauthLoginBodies.push(
            keyauthForm({
              type: 'login',
              sessionid,
              username: user.username,
              pass: password,
              hwid: '',
            }),
          );
        }
      }),
    );
    const formHeaders = { 'content-type': 'application/x-www-form-urlencoded' };
    targets.keyauthCheck = {
      port,
      path: '/api/1.2/',
      headers: formHeaders,
      bodies: keyauthCheckBodies,
      pid: latchkey.child.pid,
    };
    targets.keyauthLogin = {
      port,
      path: '/api/1.2/',
      headers: formHeaders,
      bodies: keyauthLoginBodies,
      pid: latchkey.child.pid,
      // Shared by every run: each session is logged in once.
      cursor: { next: 0 },
    };

    log('Warming up...');
    for (const name of SERVED) {
      await load({ ...targets[name], connections: CONNECTIONS, duration: 2 });
    }
    // Verify's 2 s are 20,000 calls; login's would be 200, and its main thread then still runs
    // much of its code unoptimized (V8's baseline tier): 28% more CPU per login than after
    // some thousands, when a server that has run for a while is what the figures are about.
    // Redeem spends a key a call: 2 s (most of its code is login's).
    for (const name of ['login', ...LICENSED]) {
      await load({
        ...targets[name],
        connections: LOGIN_CONNECTIONS,
        ...(name === 'redeem' ? { duration: 2 } : { amount: LOGIN_WARM_UP_CALLS }),
      });
    }
    await load({ ...targets.keyauthCheck, connections: CONNECTIONS, duration: 2 });
    if (METERS) await load({ ...targets.meterUse, connections: CONNECTIONS, duration: 2 });
    await load({
      ...targets.keyauthLogin,
      connections: LOGIN_CONNECTIONS,
      amount: KEYAUTH_LOGIN_WARM_UP_CALLS,
    });
    assertKeysLeft();

    const rounds = [];
    for (let round = 1; round <= ROUNDS; round += 1) {
      log(`Round ${round} of ${ROUNDS}...`);
      const figures = {};
      for (const name of SERVED) {
        figures[`${name}Saturated`] = await measureCpu(targets[name].pid, () =>
          load({ ...targets[name], connections: CONNECTIONS }),
        );
      }
      for (const name of SERVED) {
        figures[`${name}Fixed`] = await loadAtFixedRate({
          ...targets[name],
          connections: FIXED_RATE_CONNECTIONS,
          rate: FIXED_RATE,
          durationSeconds: DURATION_SECONDS,
        });
        warnOfFailures(targets[name].path, figures[`${name}Fixed`]);
        if (figures[`${name}Fixed`].rps < FIXED_RATE * 0.95) {
          log(
            `  warning: ${name}: the paced load reached only ${figures[`${name}Fixed`].rps.toFixed(0)}/s`,
          );
        }
      }
      figures.hash = await runNode(
        ['--import', 'tsx', 'bench/hash-limit.ts'],
        { BENCH_DURATION_MS: String(DURATION_SECONDS * 1000) },
        { wrapper: ON_SERVER_CPUS },
      );
      // Login cannot reach 1,000 a second (each one is an argon2id hash): its latency is
      // taken at saturation, with LOGIN_CONNECTIONS logins in flight.
      for (const name of ['login', ...LICENSED]) {
        figures[`${name}Saturated`] = await measureCpu(targets[name].pid, () =>
          load({ ...targets[name], connections: LOGIN_CONNECTIONS }),
        );
      }
      figures.keyauthCheckSaturated = await measureCpu(targets.keyauthCheck.pid, () =>
        load({ ...targets.keyauthCheck, connections: CONNECTIONS }),
      );
      figures.keyauthLoginSaturated = await measureCpu(targets.keyauthLogin.pid, () =>
        load({ ...targets.keyauthLogin, connections: LOGIN_CONNECTIONS }),
      );
      if (METERS) {
        figures.meterUseSaturated = await measureCpu(targets.meterUse.pid, () =>
          load({ ...targets.meterUse, connections: CONNECTIONS }),
        );
      }
      assertKeysLeft();
      rounds.push(figures);
      log(
        `  bare ${figures.bareSaturated.rps.toFixed(0)}/s, bare signed ${figures.signedSaturated.rps.toFixed(0)}/s, verify ${figures.verifySaturated.rps.toFixed(0)}/s, ` +
          `heartbeat ${figures.heartbeatSaturated.rps.toFixed(0)}/s, login ${figures.loginSaturated.rps.toFixed(0)}/s, ` +
          `argon2id ${figures.hash.hashesPerSecond.toFixed(0)}/s, redeem ${figures.redeemSaturated.rps.toFixed(0)}/s, ` +
          `key login ${figures.keyLoginSaturated.rps.toFixed(0)}/s, ` +
          `KeyAuth check ${figures.keyauthCheckSaturated.rps.toFixed(0)}/s, ` +
          `KeyAuth login ${figures.keyauthLoginSaturated.rps.toFixed(0)}/s`,
      );
    }

    const m = (pick) => median(rounds.map(pick));
    const result = {
      bare: {
        rps: m((r) => r.bareSaturated.rps),
        p50: m((r) => r.bareFixed.p50),
        p99: m((r) => r.bareFixed.p99),
      },
      signed: {
        rps: m((r) => r.signedSaturated.rps),
        p50: m((r) => r.signedFixed.p50),
        p99: m((r) => r.signedFixed.p99),
        throughputRatio: m((r) => r.signedSaturated.rps / r.bareSaturated.rps),
      },
      hashesPerSecond: m((r) => r.hash.hashesPerSecond),
      cpuPerHashUs: m((r) => r.hash.cpuPerHashUs),
    };
    for (const name of ['verify', 'heartbeat', 'login']) {
      const latencyRun = name === 'login' ? 'loginSaturated' : `${name}Fixed`;
      result[name] = {
        rps: m((r) => r[`${name}Saturated`].rps),
        p50: m((r) => r[latencyRun].p50),
        p99: m((r) => r[latencyRun].p99),
        // Ratios per round (adjacent measurements), then the median.
        throughputRatio: m((r) =>
          name === 'login'
            ? r.loginSaturated.rps / r.hash.hashesPerSecond
            : r[`${name}Saturated`].rps / r.bareSaturated.rps,
        ),
        p99Ratio: name === 'login' ? null : m((r) => r[`${name}Fixed`].p99 / r.bareFixed.p99),
        signedRatio:
          name === 'login' ? null : m((r) => r[`${name}Saturated`].rps / r.signedSaturated.rps),
      };
    }

    for (const name of LICENSED) {
      result[name] = {
        rps: m((r) => r[`${name}Saturated`].rps),
        p50: m((r) => r[`${name}Saturated`].p50),
        p99: m((r) => r[`${name}Saturated`].p99),
        loginRatio: m((r) => r[`${name}Saturated`].rps / r.loginSaturated.rps),
      };
    }

    if (METERS) {
      result.meterUse = {
        rps: m((r) => r.meterUseSaturated.rps),
        p50: m((r) => r.meterUseSaturated.p50),
        p99: m((r) => r.meterUseSaturated.p99),
      };
    }

    const pgVersion = await (async () => {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      const { rows } = await client.query('show server_version');
      await client.end();
      return rows[0].server_version;
    })();

    const pass = (ok) => (ok ? 'met' : 'MISSED');
    const percent = (ratio) => `${(ratio * 100).toFixed(0)}%`;
    const fixed = (value) => value.toFixed(0);
    const ms = (value) => `${value.toFixed(1)} ms`;
    const lines = [
      `Latchkey client API benchmark, ${new Date().toISOString().slice(0, 10)}`,
      `Machine: ${cpus()[0]?.model ?? 'unknown CPU'} x ${cpus().length}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB; Node ${process.version}; PostgreSQL ${pgVersion}`,
      `${ROUNDS} interleaved rounds x ${DURATION_SECONDS} s per measurement (medians); ${CONNECTIONS} connections at saturation from ${LOAD_GENERATOR} (${LOGIN_CONNECTIONS} for login, redeem and key login); latency at a fixed ${FIXED_RATE} req/s paced evenly over ${FIXED_RATE_CONNECTIONS} connections (login's at saturation); ${users.length} users${SERVER_CPUS === null ? '' : `; servers on CPUs ${SERVER_CPUS}`}${LOAD_CPUS === null ? '' : `, load generator and PostgreSQL on CPUs ${LOAD_CPUS}`}`,
      '',
      '| endpoint | req/s at saturation | ceiling | ratio (target) | p50 at 1,000 req/s | p99 at 1,000 req/s | ceiling p99 | p99 ratio (target) |',
      '| --- | --- | --- | --- | --- | --- | --- | --- |',
      `| bare Fastify route (ceiling) | ${fixed(result.bare.rps)} | — | — | ${ms(result.bare.p50)} | ${ms(result.bare.p99)} | — | — |`,
      `| bare route, signed answer | ${fixed(result.signed.rps)} | ${fixed(result.bare.rps)} (bare route) | ${percent(result.signed.throughputRatio)} (no target) | ${ms(result.signed.p50)} | ${ms(result.signed.p99)} | ${ms(result.bare.p99)} | — |`,
      ...['verify', 'heartbeat'].map((name) => {
        const row = result[name];
        return `| ${name} | ${fixed(row.rps)} | ${fixed(result.signed.rps)} (signed bare route) | ${percent(row.signedRatio)} (≥ 80%: ${pass(row.signedRatio >= TARGETS.throughput)}) | ${ms(row.p50)} | ${ms(row.p99)} | ${ms(result.bare.p99)} | ${row.p99Ratio.toFixed(2)}× (≤ 2×: ${pass(row.p99Ratio <= TARGETS.p99)}) |`;
      }),
      `| login | ${fixed(result.login.rps)} | ${fixed(result.hashesPerSecond)} (argon2id hashes/s) | ${percent(result.login.throughputRatio)} (≥ 90%: ${pass(result.login.throughputRatio >= TARGETS.login)}) | ${ms(result.login.p50)} | ${ms(result.login.p99)} | — | — (latency at saturation: login cannot reach 1,000 req/s) |`,
      ...[
        ['redeem', 'license/redeem'],
        ['keyLogin', 'license/login (a key alone)'],
      ].map(([name, label]) => {
        const row = result[name];
        return `| ${label} | ${fixed(row.rps)} | ${fixed(result.login.rps)} (login) | ${percent(row.loginRatio)} (≥ 90%: ${pass(row.loginRatio >= TARGETS.againstLogin)}) | ${ms(row.p50)} | ${ms(row.p99)} | — | — (latency at saturation, as login's) |`;
      }),
      ...(METERS
        ? [
            `| meters/exports/use (a unit a call) | ${fixed(result.meterUse.rps)} | — | — | ${ms(result.meterUse.p50)} | ${ms(result.meterUse.p99)} | — | — (latency at saturation) |`,
          ]
        : []),
      '',
      `Against the unsigned bare route (${fixed(result.bare.rps)} req/s): verify ${percent(result.verify.throughputRatio)}, heartbeat ${percent(result.heartbeat.throughputRatio)}, the signed route ${percent(result.signed.throughputRatio)}.`,
    ];
    if (canReadCpu) {
      const us = (value) => `${value.toFixed(0)} µs`;
      lines.push(
        '',
        'CPU per request at saturation (medians; server process, its main thread and its kernel time, all PostgreSQL processes, the load generator):',
        '',
        '| path | server | server main thread | server kernel | server × signed (≤ 1.25×) | PostgreSQL | load generator | total |',
        '| --- | --- | --- | --- | --- | --- | --- | --- |',
        ...[...SERVED, 'login', ...LICENSED, ...(METERS ? ['meterUse'] : [])].map((name) => {
          const pick = (key) => m((r) => r[`${name}Saturated`].cpu[key]);
          const [server, mainThread, kernel, postgres, loadGenerator] = [
            'server',
            'serverMainThread',
            'serverKernel',
            'postgres',
            'loadGenerator',
          ].map(pick);
          // Per round, between adjacent measurements, like the throughput ratios.
          const againstSigned =
            name === 'verify' || name === 'heartbeat'
              ? m((r) => r[`${name}Saturated`].cpu.server / r.signedSaturated.cpu.server)
              : null;
          const ratio =
            againstSigned === null
              ? '—'
              : `${againstSigned.toFixed(2)}× (${pass(againstSigned <= TARGETS.serverCpu)})`;
          return `| ${name} | ${us(server)} | ${us(mainThread)} | ${us(kernel)} | ${ratio} | ${us(postgres)} | ${us(loadGenerator)} | ${us(server + postgres + loadGenerator)} |`;
        }),
        '',
        'KeyAuth-compatible calls (/api/1.2/) against their v1 twins, server CPU per request (medians of per-round ratios):',
        '',
        '| call | req/s at saturation | server | v1 twin | server × twin (≤ 1.3×) |',
        '| --- | --- | --- | --- | --- |',
        ...[
          ['check', 'keyauthCheck', 'verify'],
          ['check', 'keyauthCheck', 'heartbeat'],
          ['login', 'keyauthLogin', 'login'],
        ].map(([label, name, twin]) => {
          const ratio = m(
            (r) => r[`${name}Saturated`].cpu.server / r[`${twin}Saturated`].cpu.server,
          );
          return `| ${label} | ${fixed(m((r) => r[`${name}Saturated`].rps))} | ${us(m((r) => r[`${name}Saturated`].cpu.server))} | ${twin} ${us(m((r) => r[`${twin}Saturated`].cpu.server))} | ${ratio.toFixed(2)}× (${pass(ratio <= KEYAUTH_TARGET)}) |`;
        }),
        '',
        // What login's CPU is set against: the hash alone, with nothing else on the cores.
        `An argon2id hash alone (bench/hash-limit.ts, the process's CPU per hash): ${us(result.cpuPerHashUs)}.`,
      );
    }
    process.stdout.write(`${lines.join('\n')}\n`);
    if (process.env.BENCH_JSON) process.stdout.write(`${JSON.stringify({ result, rounds })}\n`);
  } finally {
    if (LOAD_CPUS !== null) keepPostgresToCpus(`0-${cpus().length - 1}`);
    if (latchkey) await stopChild(latchkey.child);
    if (bare) await stopChild(bare.child);
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
