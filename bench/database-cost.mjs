#!/usr/bin/env node
// `npm run bench:database`: where PostgreSQL's CPU goes for one client call at saturation.
//
// - Starts the bench server (bench/latchkey-server.ts) on PostgreSQL, as `npm run bench` does,
//   and loads one call (`BENCH_DATABASE_CALL`: `keyLogin` (default), `login`, `redeem` or
//   `meterUse`, a unit a call on every seeded session, the plan given a meter; or
//   `meterUseOnce`, the same with a fresh idempotency key a call, as the SDKs send) from
//   this process for BENCH_ROUNDS (3) rounds of BENCH_DURATION (8) s after a warm-up.
// - Per round: calls a second, and the CPU per call of every PostgreSQL process of the server,
//   by kind (the client backends, user and kernel time apart; the WAL writer, autovacuum, the
//   checkpointer...), read from /proc. PostgreSQL must run on this machine.
// - With pg_stat_statements loaded (`shared_preload_libraries`), the statements of the rounds,
//   per call: how often each ran, how often it was planned (a prepared statement planned on
//   every call is the first thing to look for), and its planning and execution time. The
//   extension is created in the throwaway database if the role may; otherwise the table is left
//   out with the reason. `pg_stat_statements.track = all` adds the statements that triggers and
//   foreign keys run.
//
// Compare figures from one sitting only: this machine's noise between sittings is ±15%.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import {
  benchServerEnv,
  hotCallBodies,
  prepareDatabase,
  saturate,
  startChild,
  stopChild,
} from './bench-kit.mjs';
import { canReadCpu, pinPostgres, postgresPids, processTimesUs } from './process-cpu.mjs';

const CALL = process.env.BENCH_DATABASE_CALL ?? 'keyLogin';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 8);
const CONNECTIONS = Number(process.env.BENCH_LOGIN_CONNECTIONS ?? 16);
/**
 * `BENCH_DATABASE_PIN=1`: PostgreSQL's processes on the first core, the server and this load on
 * the others (Linux `taskset`; needs the right to set PostgreSQL's affinity, as root or its
 * user). Password hashing walks 19 MiB per hash: on shared cores it evicts the backends' caches
 * and preempts them mid-statement, which shows as database CPU. Pinned, the figure is closer to
 * a database on a machine of its own, as in production.
 */
const PIN = process.env.BENCH_DATABASE_PIN === '1';
/** Idempotency keys made for `meterUseOnce`, one a call: more than the rounds send. */
const METER_KEYS = Number(process.env.BENCH_METER_KEYS ?? 200_000);
/** Calls a second for the rounds; unset, as many as the machine answers. */
const RATE = process.env.BENCH_DATABASE_RATE ? Number(process.env.BENCH_DATABASE_RATE) : undefined;
const PATHS = {
  keyLogin: '/api/v1/license/login',
  login: '/api/v1/login',
  redeem: '/api/v1/license/redeem',
  meterUse: '/api/v1/meters/exports/use',
  meterUseOnce: '/api/v1/meters/exports/use',
};
if (!(CALL in PATHS)) throw new Error(`BENCH_DATABASE_CALL must be one of ${Object.keys(PATHS)}`);
if (!canReadCpu) throw new Error('bench:database reads /proc: Linux only');

const log = (message) => process.stderr.write(`${message}\n`);

/** CPU times (µs) of this machine's PostgreSQL processes, by pid, with each one's kind. */
function postgresProcesses(databaseName) {
  const processes = new Map();
  for (const pid of postgresPids()) {
    let title;
    try {
      title = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
    } catch {
      continue; // ended meanwhile
    }
    // "postgres: 15/main: walwriter", "postgres: 15/main: latchkey_ci latchkey_bench_… idle"
    const isClient = /\(\d+\)/.test(title) || title.includes('[local]');
    if (isClient && !title.includes(` ${databaseName} `)) continue; // another database's
    const kind = isClient
      ? 'client backends'
      : (/^postgres: (?:[^:]+: )?(.+?)\s*$/.exec(title)?.[1] ?? 'postmaster').replace(
          /^(autovacuum worker|logical replication launcher|background writer).*/,
          '$1',
        );
    processes.set(pid, { kind, ...processTimesUs(pid) });
  }
  return processes;
}

/** CPU per kind between two readings (a process that began in between counts from zero). */
function cpuByKind(before, after) {
  const byKind = new Map();
  for (const [pid, now] of after) {
    const then = before.get(pid) ?? { user: 0, kernel: 0 };
    const sum = byKind.get(now.kind) ?? { user: 0, kernel: 0 };
    sum.user += now.user - then.user;
    sum.kernel += now.kernel - then.kernel;
    byKind.set(now.kind, sum);
  }
  return byKind;
}

/** pg_stat_statements of the bench's database, by query id. */
async function readStatements(client, databaseName) {
  const { rows } = await client.query(
    `select queryid::text as id, query, calls::float8, plans::float8,
            total_exec_time::float8 as exec_ms, total_plan_time::float8 as plan_ms
     from pg_stat_statements
     where dbid = (select oid from pg_database where datname = $1)`,
    [databaseName],
  );
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * A connection that reads pg_stat_statements: the extension is created in the throwaway
 * database where the role may, else read where an administrator created it (the server's
 * BENCH_DATABASE_URL database). Answers the reason instead when neither works.
 */
async function statementsReader(database, databaseName) {
  const reasons = [];
  const serverUrl =
    process.env.BENCH_DATABASE_URL ?? 'postgres://latchkey_ci:latchkey_ci@127.0.0.1:5432/postgres';
  for (const [url, create] of [
    [database.url, true],
    [serverUrl, false],
  ]) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      if (create) await client.query('create extension if not exists pg_stat_statements');
      await readStatements(client, databaseName);
      return { client };
    } catch (error) {
      reasons.push(error.message);
      await client.end().catch(() => {});
    }
  }
  return { unavailable: reasons.join('; ') };
}

async function main() {
  const cores = availableParallelism();
  if (PIN && cores < 2) throw new Error('BENCH_DATABASE_PIN needs at least two cores');
  const otherCores = `1-${cores - 1}`;
  if (PIN)
    execFileSync('taskset', ['-a', '-cp', otherCores, String(process.pid)], { stdio: 'ignore' });
  const database = await prepareDatabase();
  const databaseName = new URL(database.url).pathname.slice(1);
  const dataDir = mkdtempSync(join(tmpdir(), 'latchkey-bench-database-'));
  let latchkey;
  let stats;
  try {
    log(`Starting Latchkey on PostgreSQL (${database.label})...`);
    latchkey = await startChild(
      ['--import', 'tsx', 'bench/latchkey-server.ts'],
      benchServerEnv({
        databaseUrl: database.url,
        dataDir,
        ...(CALL.startsWith('meterUse') ? { BENCH_METERS: '1' } : {}),
      }),
      { wrapper: PIN ? ['taskset', '-c', otherCores] : [] },
    );
    // The postmaster too, so that backends started later inherit the core.
    if (PIN) pinPostgres('0');
    const reader = await statementsReader(database, databaseName);
    stats = reader.client;
    const statementsUnavailable = reader.unavailable;
    const { port, apiKey, users, password, redeemKeys, tokens } = latchkey.info;
    const bodies = {
      ...hotCallBodies(latchkey.info),
      meterUse: tokens.map((token) => JSON.stringify({ session_token: token, amount: 1 })),
      // A key a call: a body used twice would be a replay, a cheaper path than an increment.
      meterUseOnce:
        CALL === 'meterUseOnce'
          ? Array.from({ length: METER_KEYS }, (_, index) =>
              JSON.stringify({
                session_token: tokens[index % tokens.length],
                amount: 1,
                idempotency_key: randomUUID(),
              }),
            )
          : [],
      redeem: redeemKeys.map((key, index) =>
        JSON.stringify({
          username: users[index % users.length].username,
          password,
          license_key: key,
        }),
      ),
    };
    const target = {
      port,
      path: PATHS[CALL],
      headers: { 'x-api-key': apiKey },
      bodies: bodies[CALL],
      connections: CONNECTIONS,
      // One use per redemption key: the rounds go on where the warm-up stopped.
      cursor: { next: 0 },
    };
    if (CALL === 'keyLogin') {
      log(`Creating the users of ${bodies.keyLogin.length} keys (first key logins)...`);
      await saturate({ ...target, amount: bodies.keyLogin.length });
    }
    log('Warming up...');
    await saturate({ ...target, duration: CALL === 'redeem' ? 2 : 5 });

    const rounds = [];
    const statementsBefore = statementsUnavailable
      ? null
      : await readStatements(stats, databaseName);
    for (let round = 1; round <= ROUNDS; round += 1) {
      log(`Round ${round} of ${ROUNDS}...`);
      const before = postgresProcesses(databaseName);
      const result = await saturate({
        ...target,
        duration: CALL === 'redeem' ? Math.min(DURATION_SECONDS, 5) : DURATION_SECONDS,
        rate: RATE,
      });
      rounds.push({ result, byKind: cpuByKind(before, postgresProcesses(databaseName)) });
      if (target.cursor.next >= bodies.redeem.length && CALL === 'redeem') {
        throw new Error('every key was redeemed before the rounds ended: raise BENCH_REDEEM_KEYS');
      }
      if (target.cursor.next >= bodies.meterUseOnce.length && CALL === 'meterUseOnce') {
        throw new Error('an idempotency key was sent twice: raise BENCH_METER_KEYS');
      }
    }
    const statementsAfter = statementsUnavailable
      ? null
      : await readStatements(stats, databaseName);

    console.log(
      `PostgreSQL's CPU per ${CALL} call (${PATHS[CALL]}), ${new Date().toISOString().slice(0, 10)}`,
    );
    console.log(
      `${ROUNDS} rounds × ${DURATION_SECONDS} s at ${CONNECTIONS} connections` +
        (RATE === undefined ? '' : `, paced at ${RATE} calls a second`) +
        (PIN ? ', PostgreSQL pinned to core 0 and the rest to the others' : ''),
    );
    // The kinds that took at least a microsecond a call in some round.
    const kinds = [...new Set(rounds.flatMap(({ byKind }) => [...byKind.keys()]))]
      .filter((kind) =>
        rounds.some(({ result, byKind }) => {
          const cpu = byKind.get(kind);
          return cpu !== undefined && (cpu.user + cpu.kernel) / result.total >= 1;
        }),
      )
      .sort();
    console.log(`| round | calls/s | ${kinds.join(' | ')} | total |`);
    console.log(`| --- | --- | ${kinds.map(() => '---').join(' | ')} | --- |`);
    let totalCalls = 0;
    for (const [index, { result, byKind }] of rounds.entries()) {
      totalCalls += result.total;
      const perCall = (us) => us / result.total;
      let total = 0;
      const cells = kinds.map((kind) => {
        const cpu = byKind.get(kind) ?? { user: 0, kernel: 0 };
        total += perCall(cpu.user + cpu.kernel);
        return kind === 'client backends'
          ? `${perCall(cpu.user).toFixed(0)} + ${perCall(cpu.kernel).toFixed(0)} µs (user + kernel)`
          : `${perCall(cpu.user + cpu.kernel).toFixed(0)} µs`;
      });
      console.log(
        `| ${index + 1} | ${result.rps.toFixed(0)} | ${cells.join(' | ')} | **${total.toFixed(0)} µs** |`,
      );
    }

    if (statementsUnavailable) {
      console.log(
        `\nNo statements: pg_stat_statements is not readable (${statementsUnavailable}).`,
      );
      return;
    }
    // The warm-up's statements are taken off: what remains ran during the rounds.
    const rows = [];
    for (const [id, after] of statementsAfter) {
      const before = statementsBefore.get(id) ?? { calls: 0, plans: 0, exec_ms: 0, plan_ms: 0 };
      const calls = after.calls - before.calls;
      if (calls <= 0) continue;
      rows.push({
        query: after.query.replace(/\s+/g, ' ').trim().slice(0, 90),
        calls: calls / totalCalls,
        plans: (after.plans - before.plans) / totalCalls,
        planUs: ((after.plan_ms - before.plan_ms) * 1000) / totalCalls,
        execUs: ((after.exec_ms - before.exec_ms) * 1000) / totalCalls,
      });
    }
    rows.sort((a, b) => b.planUs + b.execUs - (a.planUs + a.execUs));
    console.log(
      `\nStatements per ${CALL} call (pg_stat_statements; times are wall time, waits included):`,
    );
    console.log('| statement | runs | plans | planning | executing |');
    console.log('| --- | --- | --- | --- | --- |');
    for (const row of rows.filter((row) => row.planUs + row.execUs >= 1).slice(0, 15)) {
      console.log(
        `| \`${row.query.replaceAll('|', '\\|')}\` | ${row.calls.toFixed(2)} | ${row.plans.toFixed(2)} | ${row.planUs.toFixed(0)} µs | ${row.execUs.toFixed(0)} µs |`,
      );
    }
  } finally {
    if (PIN) pinPostgres(`0-${cores - 1}`);
    await stats?.end().catch(() => {});
    if (latchkey) await stopChild(latchkey.child);
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
