#!/usr/bin/env node
// `npm run bench:database-floor`: what PostgreSQL's CPU per call is before a call does any work.
//
// A client call's database CPU (`npm run bench:database`) holds a fixed part: waking an idle
// backend for each round trip, and flushing the WAL for each commit that writes. At a few
// thousand calls a second the backends never idle and commits share their flushes; at a password
// hash's rate (100–200 a second here) every call pays both alone. This measures that part with
// the smallest transactions of a login's shape, through `pgbench` (prepared statements, 16
// clients), at each rate of BENCH_FLOOR_RATES (default 133 and 3000 a second), BENCH_ROUNDS (2)
// rounds of BENCH_DURATION (20) s each:
//
// - a round trip that reads (`select` of one catalog row, no commit to flush);
// - a round trip that writes one row and commits;
// - both, in that order: a login's two round trips (its lookup, then its closing statement).
//
// The CPU is every PostgreSQL process's, the backends that ended with the run included (read
// from the postmaster's children's times), less the clients' connection start-up. `BENCH_DATABASE_PIN=1` pins PostgreSQL to the first
// core and pgbench to the others, as `bench:database` does. Needs `pgbench` (PostgreSQL's
// binaries: PGBENCH, else on the PATH or under /usr/lib/postgresql) and PostgreSQL on this
// machine.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { median, prepareDatabase } from './bench-kit.mjs';
import { canReadCpu, execFileSyncSafe, pinPostgres, postgresCpuUs } from './process-cpu.mjs';

const RATES = (process.env.BENCH_FLOOR_RATES ?? '133,3000').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 20);
const PIN = process.env.BENCH_DATABASE_PIN === '1';
const CLIENTS = 16;
if (!canReadCpu) throw new Error('bench:database-floor reads /proc: Linux only');

const SHAPES = {
  'a read': ['select 1 from pg_class where oid = 1259;'],
  'a write and its commit': [
    '\\set v random(1, 100000)',
    'insert into floor_rows (v) values (:v);',
  ],
  'both (a login’s two round trips)': [
    '\\set v random(1, 100000)',
    'select 1 from pg_class where oid = 1259;',
    'insert into floor_rows (v) values (:v);',
  ],
};

function findPgbench() {
  if (process.env.PGBENCH) return process.env.PGBENCH;
  if (execFileSyncSafe('sh', ['-c', 'command -v pgbench'])) return 'pgbench';
  const versions = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a))
    : [];
  for (const version of versions) {
    const path = `/usr/lib/postgresql/${version}/bin/pgbench`;
    if (existsSync(path)) return path;
  }
  throw new Error('pgbench not found: set PGBENCH');
}

async function main() {
  const pgbench = findPgbench();
  const cores = availableParallelism();
  if (PIN && cores < 2) throw new Error('BENCH_DATABASE_PIN needs at least two cores');
  const database = await prepareDatabase();
  const scripts = mkdtempSync(join(tmpdir(), 'latchkey-floor-'));
  try {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    await client.query(
      'create table if not exists floor_rows (id bigserial primary key, v integer not null, at timestamptz not null default now())',
    );
    await client.end();
    if (PIN) pinPostgres('0');
    const pgbenchCommand = (args) => {
      const command = [pgbench, '-n', '-M', 'prepared', '-c', String(CLIENTS), '-j', '1', ...args];
      return execFileSync(
        PIN ? 'taskset' : command[0],
        PIN ? ['-c', `1-${cores - 1}`, ...command] : command.slice(1),
        { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
      );
    };
    // Each run opens 16 connections: a backend's start-up and its password's SCRAM exchange
    // cost PostgreSQL ~5 ms each here, which would add ~60 µs to each of a low rate's
    // transactions. Measured apart (one read per client, a few µs each) and taken off.
    const startScript = join(scripts, 'start.sql');
    writeFileSync(startScript, `${SHAPES['a read'][0]}\n`);
    const startUps = [];
    for (let run = 0; run < 5; run += 1) {
      const before = postgresCpuUs();
      pgbenchCommand(['-t', '1', '-f', startScript, database.url]);
      startUps.push(postgresCpuUs() - before);
    }
    const startUpUs = median(startUps);
    const results = [];
    for (const rate of RATES) {
      for (const [shape, lines] of Object.entries(SHAPES)) {
        const script = join(scripts, `${results.length}.sql`);
        writeFileSync(script, `${lines.join('\n')}\n`);
        for (let round = 1; round <= ROUNDS; round += 1) {
          process.stderr.write(`${shape} at ${rate} a second, round ${round}...\n`);
          const before = postgresCpuUs();
          const output = pgbenchCommand([
            '-T',
            String(DURATION_SECONDS),
            '-R',
            String(rate),
            '-f',
            script,
            database.url,
          ]);
          const cpuUs = postgresCpuUs() - before - startUpUs;
          const processed = Number(/actually processed: (\d+)/.exec(output)?.[1] ?? 0);
          if (!processed) throw new Error(`pgbench processed nothing:\n${output}`);
          results.push({ rate, shape, round, processed, cpuUs: cpuUs / processed });
        }
      }
    }
    console.log(
      `PostgreSQL's CPU per transaction of the smallest shapes, ${new Date().toISOString().slice(0, 10)}`,
    );
    console.log(
      `${ROUNDS} rounds × ${DURATION_SECONDS} s each, ${CLIENTS} pgbench clients, prepared` +
        (PIN ? ', PostgreSQL pinned to core 0 and pgbench to the others' : ''),
    );
    console.log(
      `Taken off each round: ${(startUpUs / 1000).toFixed(1)} ms, the ${CLIENTS} connections' start-up (median of five).`,
    );
    console.log('| rate asked | shape | per round |');
    console.log('| --- | --- | --- |');
    for (const rate of RATES) {
      for (const shape of Object.keys(SHAPES)) {
        const rounds = results.filter((row) => row.rate === rate && row.shape === shape);
        const figures = rounds.map(
          (row) =>
            `${row.cpuUs.toFixed(0)} µs (${(row.processed / DURATION_SECONDS).toFixed(0)}/s)`,
        );
        console.log(`| ${rate}/s | ${shape} | ${figures.join(', ')} |`);
      }
    }
  } finally {
    if (PIN) pinPostgres(`0-${cores - 1}`);
    rmSync(scripts, { recursive: true, force: true });
    await database.drop();
  }
}

await main();
