#!/usr/bin/env node
// `npm run bench:scale`: the owner side and the hot path when one vendor is large.
//
// - Starts Latchkey (bench/scale-server.ts) on a throwaway PostgreSQL database (see
//   bench-kit.mjs) seeded with one vendor: SCALE_USERS (100,000) end users in one application,
//   SCALE_LOGS (1,000,000) activity rows, SCALE_BLACKLIST (10,000) blacklist entries, and
//   SCALE_EXPIRED_DAYS (30) days of rows past the retention, which it times the sweep of
//   (SCALE_SEED_PARTITIONS=0: all in the default partition, swept row by row as before
//   the log was partitioned).
// - Times each read the console makes, one request at a time (SCALE_SAMPLES each, after a
//   warm-up), and reports p50, p95 and the answer's size.
// - Times login and verify the same way, then verify again while SCALE_READERS loops run the
//   heaviest owner reads without pause: how much one vendor's console slows everyone's verify.
//   The loops run in a worker thread (owner-read-loops.mjs), so that handling their answers
//   does not delay the verify timings' own event loop.
// - Explains every query of each owner read (EXPLAIN ANALYZE of the server's own statements)
//   into SCALE_PLANS_FILE (default: a file in the temporary directory, printed at the end).
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  freePort,
  median,
  prepareDatabase,
  startChild,
  stopChild,
  waitUntilHealthy,
} from './bench-kit.mjs';

const SAMPLES = Number(process.env.SCALE_SAMPLES ?? 40);
const VERIFY_SAMPLES = Number(process.env.SCALE_VERIFY_SAMPLES ?? 800);
/** The noisy-neighbour figures: verify timings per window (idle and loaded alternate) and warm-up. */
const NOISY_WINDOWS = 8;
const NOISY_WARMUP = 1000;
const READERS = Number(process.env.SCALE_READERS ?? 4);
// The targets: verify under the owner reads ≤ 1.5× idle, and the reads beside it ≤ 2× alone.
const TARGETS = { ownerReadP95Ms: 50, verifyUnderLoadRatio: 1.5, readsUnderLoadRatio: 2 };
/** The settings the noisy-neighbour figures are taken in, each NOISY_RUNS times. */
const NOISY_SETTINGS = (process.env.SCALE_SETTINGS ?? 'one,split').split(',');
const NOISY_RUNS = Number(process.env.SCALE_NOISY_RUNS ?? 3);
/**
 * The read loops' niceness: 0 by default, everything on one machine at one priority. Above 0
 * approximates consoles whose browsers are on other machines (the load generator may be set
 * apart where the two cores make it the bottleneck).
 */
const LOOPS_NICENESS = Number(process.env.SCALE_LOOPS_NICENESS ?? 0);
/**
 * The CPUs the read loops may run on (a taskset list), unset: any. With CONSOLE_WORKER_CPUS
 * set to the same list, the consoles' traffic and the console side share those CPUs, as on a
 * deployment whose consoles' browsers are elsewhere and whose console side has cores of its own.
 */
const LOOPS_CPUS = process.env.SCALE_LOOPS_CPUS || null;
/**
 * The CPUs this process (the verify timer, standing in for the vendors' programs, which run
 * on other machines) is kept to for the noisy-neighbour figures; unset: any.
 */
const TIMER_CPUS = process.env.SCALE_TIMER_CPUS || null;

const log = (message) => process.stderr.write(`${message}\n`);

/** A sequential scan reading more rows than this is reported (a missing index). */
const LARGE_SCAN_ROWS = 5000;

/**
 * The sequential scans in EXPLAIN ANALYZE output (scale-server.ts's plans file) that read
 * more than `limit` rows (returned plus removed by their filter), each with its request.
 */
function sequentialScansOver(plans, limit) {
  const found = [];
  let request = '';
  const lines = plans.split('\n');
  lines.forEach((line, index) => {
    if (line.startsWith('### ')) request = line.slice(4);
    const scan = /Seq Scan on (\w+).*rows=(\d+) loops=(\d+)/.exec(line);
    if (!scan) return;
    let read = Number(scan[2]);
    for (const next of lines.slice(index + 1, index + 4)) {
      const removed = /Rows Removed by Filter: (\d+)/.exec(next);
      if (removed) read += Number(removed[1]);
    }
    read *= Number(scan[3]);
    if (read > limit) found.push(`${scan[1]} (${read.toLocaleString('en')} rows) in ${request}`);
  });
  return found;
}

/** A process's resident set, in KiB, from /proc (Linux). */
function residentSetKb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return { current: Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) };
}

const percentile = (values, fraction) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
};

/**
 * The recommended production setting on the seeded database: the real server (main.ts) with
 * CLIENT_API_PORT, one client-API worker and one console worker (niceness 10). A non-demo
 * Firebase project, so no Auth emulator starts: the owner's session is seeded.
 */
async function startSplitServer({ databaseUrl, serverSecret }) {
  const [consolePort, clientPort] = [await freePort(), await freePort()];
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'development',
      HOST: '127.0.0.1',
      PORT: String(consolePort),
      CLIENT_API_PORT: String(clientPort),
      CLIENT_API_WORKERS: process.env.SCALE_CLIENT_API_WORKERS ?? '1',
      WEB_CONCURRENCY: process.env.SCALE_CONSOLE_WORKERS ?? '1',
      DATABASE_URL: databaseUrl,
      SERVER_SECRET: serverSecret,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'latchkey-scale-split-')),
      LOG_LEVEL: 'warn',
      SERVE_CONSOLE: 'false',
      CLIENT_API_IP_LIMIT_PER_MINUTE: '1000000000',
      FIREBASE_PROJECT_ID: 'latchkey-bench',
      FIREBASE_API_KEY: 'unused',
      FIREBASE_AUTH_DOMAIN: 'unused.example.com',
      RETENTION_SWEEP_INTERVAL_MINUTES: '1440',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const consoleBase = `http://127.0.0.1:${consolePort}`;
  const clientBase = `http://127.0.0.1:${clientPort}`;
  await waitUntilHealthy(child, `${consoleBase}/api/health`);
  await waitUntilHealthy(child, `${clientBase}/api/health`);
  return { child, consoleBase, clientBase };
}

async function main() {
  const database = await prepareDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'latchkey-scale-'));
  const plansFile =
    process.env.SCALE_PLANS_FILE ?? join(tmpdir(), `latchkey-scale-plans-${Date.now()}.txt`);
  const serverSecret = randomBytes(32).toString('base64url');
  let server;
  let split = null;
  try {
    log(`Seeding and starting Latchkey on PostgreSQL (${database.label})...`);
    server = await startChild(['--import', 'tsx', 'bench/scale-server.ts'], {
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      SERVER_SECRET: serverSecret,
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      SERVE_CONSOLE: 'false',
      CLIENT_API_IP_LIMIT_PER_MINUTE: '1000000000',
      SCALE_PLANS_FILE: plansFile,
    });
    const {
      port,
      applicationId,
      apiKey,
      version,
      password,
      sessionToken,
      users,
      planId,
      keyHolderId,
      retentionSweep,
    } = server.info;
    const base = `http://127.0.0.1:${port}`;
    // Started now, long before it is measured: its first retention sweep (30 s after start)
    // and its warm-up are over by then.
    if (NOISY_SETTINGS.includes('split')) {
      log('Starting the recommended production setting (CLIENT_API_PORT, two processes)...');
      split = await startSplitServer({ databaseUrl: database.url, serverSecret });
    }
    const ownerHeaders = { cookie: `latchkey_session=${sessionToken}` };

    const ownerReads = [
      ['dashboard stats', '/api/dashboard/stats'],
      ['applications list', '/api/applications'],
      ['application stats', `/api/applications/${applicationId}/stats`],
      // The activity charts, from hourly buckets (every one in 16 shards here).
      ['chart, application, 24 h', `/api/applications/${applicationId}/activity-chart?range=24h`],
      ['chart, application, 7 d', `/api/applications/${applicationId}/activity-chart?range=7d`],
      ['chart, application, 30 d', `/api/applications/${applicationId}/activity-chart?range=30d`],
      ['chart, dashboard, 24 h', '/api/dashboard/activity-chart?range=24h'],
      ['chart, dashboard, 30 d', '/api/dashboard/activity-chart?range=30d'],
      ['users page', `/api/applications/${applicationId}/users?page=1&pageSize=25`],
      ['users page 2,000', `/api/applications/${applicationId}/users?page=2000&pageSize=25`],
      ['users search', `/api/applications/${applicationId}/users?search=user-4242`],
      // A search that matches every user: what a search costs when it cannot narrow.
      ['users search, matching all', `/api/applications/${applicationId}/users?search=user-`],
      ['activity log page', `/api/activity-logs?applicationId=${applicationId}&page=1&pageSize=50`],
      [
        'activity log, filtered',
        `/api/activity-logs?applicationId=${applicationId}&event=login_failed&page=1&pageSize=50`,
      ],
      [
        'activity log, search',
        `/api/activity-logs?applicationId=${applicationId}&search=user-4242`,
      ],
      [
        'activity log, search matching all',
        `/api/activity-logs?applicationId=${applicationId}&search=203.0.113.`,
      ],
      // The stat cards above the log, which the page asks for beside each page of it.
      ['activity log stats', `/api/activity-logs/stats?applicationId=${applicationId}`],
      [
        'activity log stats, filtered',
        `/api/activity-logs/stats?applicationId=${applicationId}&event=login_failed`,
      ],
      [
        'activity log stats, search',
        `/api/activity-logs/stats?applicationId=${applicationId}&search=user-4242`,
      ],
      [
        'activity log stats, search matching all',
        `/api/activity-logs/stats?applicationId=${applicationId}&search=203.0.113.`,
      ],
      // A million licence keys in the application, a third used.
      ['licence keys page', `/api/applications/${applicationId}/licenses?page=1&pageSize=50`],
      [
        'licence keys page 2,000',
        `/api/applications/${applicationId}/licenses?page=2000&pageSize=50`,
      ],
      ['licence keys, used', `/api/applications/${applicationId}/licenses?status=used`],
      ['licence keys, unused', `/api/applications/${applicationId}/licenses?status=unused`],
      ['licence keys, plan', `/api/applications/${applicationId}/licenses?planId=${planId}`],
      [
        'licence keys, search by last four',
        `/api/applications/${applicationId}/licenses?search=a1b2`,
      ],
      [
        'licence keys, search by note matching 10,000',
        `/api/applications/${applicationId}/licenses?search=batch%2042`,
      ],
      [
        'licence keys, search by note matching 110,001',
        `/api/applications/${applicationId}/licenses?search=batch%201`,
      ],
      [
        'licence keys, search by holder',
        `/api/applications/${applicationId}/licenses?search=user-4242`,
      ],
      [
        'licence keys, search by whole key',
        `/api/applications/${applicationId}/licenses?search=ABCDE-FGHJK-LMNPQ-RSTUV-WXYZ2`,
      ],
      [
        "a user's subscriptions",
        `/api/applications/${applicationId}/users/${keyHolderId}/subscriptions`,
      ],
      ['blacklist page', '/api/blacklist?page=1&pageSize=25'],
      ['blacklist search', '/api/blacklist?search=banned-777'],
    ];
    /** The reads the console polls or a busy owner repeats: the load on verify. */
    const heavyReads = ['application stats', 'users page', 'users search', 'activity log page'];

    const ownerRead = async (path, extraHeaders = {}) => {
      const startedAt = performance.now();
      const response = await fetch(`${base}${path}`, {
        headers: { ...ownerHeaders, ...extraHeaders },
      });
      const body = await response.arrayBuffer();
      const ms = performance.now() - startedAt;
      if (response.status !== 200) {
        throw new Error(
          `${path}: ${response.status} ${Buffer.from(body).toString().slice(0, 200)}`,
        );
      }
      return { ms, bytes: body.byteLength };
    };
    const clientCall = async (path, body, clientBase = base) => {
      const startedAt = performance.now();
      const response = await fetch(`${clientBase}/api/v1/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
        body: JSON.stringify(body),
      });
      const answer = await response.json();
      const ms = performance.now() - startedAt;
      if (!answer.success) throw new Error(`${path}: ${JSON.stringify(answer)}`);
      return ms;
    };
    const verifyTimes = async (count, clientBase = base) => {
      const times = [];
      for (let i = 0; i < count; i += 1) {
        times.push(await clientCall('verify', { user_id: users[i % users.length].id }, clientBase));
      }
      return times;
    };

    /** The heaviest reads run by READERS loops on `ownerBase` until `during` resolves. */
    const heavyReadPaths = heavyReads.map(
      (name) => ownerReads.find(([readName]) => readName === name)[1],
    );
    const readLoopsDuring = async (ownerBase, during) => {
      const workload = {
        base: ownerBase,
        headers: ownerHeaders,
        paths: heavyReadPaths,
        loops: READERS,
      };
      const script = new URL('./owner-read-loops.mjs', import.meta.url).pathname;
      const command = ['nice', '-n', String(LOOPS_NICENESS), process.execPath, script];
      if (LOOPS_CPUS !== null) command.unshift('taskset', '-c', LOOPS_CPUS);
      const readLoops = spawn(command[0], [...command.slice(1), JSON.stringify(workload)], {
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      const messages = [];
      let onMessage = () => {};
      readLoops.on('message', (message) => {
        messages.push(message);
        onMessage();
      });
      const next = (key) =>
        new Promise((resolve, reject) => {
          const check = () => {
            const found = messages.find((message) => key in message);
            if (found) resolve(found);
          };
          onMessage = check;
          readLoops.once('exit', (code) => reject(new Error(`read loops exited with ${code}`)));
          check();
        });
      await next('started');
      const result = await during();
      const finished = next('readsDone');
      readLoops.send('stop');
      const { readsDone, times } = await finished;
      return { result, readsDone, readTimes: times };
    };

    /**
     * The noisy neighbour, in one setting: verify's p95 idle and while READERS loops run the
     * heaviest owner reads, and the reads' own p95 in those loops with and without the verify
     * timings beside them (slowed, never starved).
     */
    const noisyNeighbour = async ({ clientBase, ownerBase }) => {
      // Idle and loaded windows alternate, so a drift of the machine (another tenant, a
      // process still warming up) falls on both alike.
      // The reads alone are timed the same way as beside verify: a fresh loops process per
      // window, for as long as that window's verify timings took. (Timing them in one long
      // window instead compared warm loops against loops just started.)
      const idle = [];
      const loaded = [];
      const readTimes = [];
      const readTimesAlone = [];
      let readsDone = 0;
      const perWindow = Math.ceil(VERIFY_SAMPLES / NOISY_WINDOWS);
      for (let window = 0; window < NOISY_WINDOWS; window += 1) {
        idle.push(...(await verifyTimes(perWindow, clientBase)));
        let windowMs = 0;
        const run = await readLoopsDuring(ownerBase, async () => {
          const startedAt = performance.now();
          const times = await verifyTimes(perWindow, clientBase);
          windowMs = performance.now() - startedAt;
          return times;
        });
        loaded.push(...run.result);
        readTimes.push(...run.readTimes);
        readsDone += run.readsDone;
        const alone = await readLoopsDuring(
          ownerBase,
          () => new Promise((resolve) => setTimeout(resolve, windowMs)),
        );
        readTimesAlone.push(...alone.readTimes);
      }
      return {
        idleP95: percentile(idle, 0.95),
        loadedP95: percentile(loaded, 0.95),
        readsDone,
        readsAlone: readTimesAlone.length,
        readsAloneP95: percentile(readTimesAlone, 0.95),
        readsLoadedP95: percentile(readTimes, 0.95),
      };
    };

    const rows = [];
    for (const [name, path] of ownerReads) {
      log(`Timing ${name}...`);
      for (let i = 0; i < 3; i += 1) await ownerRead(path);
      const samples = [];
      let bytes = 0;
      for (let i = 0; i < SAMPLES; i += 1) {
        const sample = await ownerRead(path);
        samples.push(sample.ms);
        bytes = sample.bytes;
      }
      rows.push({ name, path, p50: median(samples), p95: percentile(samples, 0.95), bytes });
    }

    log('Exporting every licence key as CSV...');
    const rssBefore = residentSetKb(server.child.pid);
    const exportStartedAt = performance.now();
    let exportBytes = 0;
    let exportPeakKb = rssBefore.current;
    const sampler = setInterval(() => {
      exportPeakKb = Math.max(exportPeakKb, residentSetKb(server.child.pid).current);
    }, 50);
    const exported = await fetch(`${base}/api/applications/${applicationId}/licenses/export.csv`, {
      headers: ownerHeaders,
    });
    for await (const chunk of exported.body) exportBytes += chunk.byteLength;
    clearInterval(sampler);
    const exportSeconds = (performance.now() - exportStartedAt) / 1000;

    log('Generating 10,000 keys in one request...');
    const generateTimes = [];
    for (let i = 0; i < 3; i += 1) {
      const startedAt = performance.now();
      const generated = await fetch(`${base}/api/applications/${applicationId}/licenses`, {
        method: 'POST',
        headers: { ...ownerHeaders, 'content-type': 'application/json', origin: base },
        body: JSON.stringify({ planId, count: 10_000 }),
      });
      await generated.arrayBuffer();
      if (generated.status !== 201) throw new Error(`generate: ${generated.status}`);
      generateTimes.push(performance.now() - startedAt);
    }

    log('Timing login and verify...');
    const loginTimes = [];
    for (let i = 0; i < SAMPLES; i += 1) {
      const user = users[(i * 37) % users.length];
      loginTimes.push(await clientCall('login', { username: user.username, password, version }));
    }
    await verifyTimes(50);
    const idleVerify = await verifyTimes(VERIFY_SAMPLES);

    const noisy = [];
    if (TIMER_CPUS !== null) {
      execFileSync('taskset', ['-a', '-p', '-c', TIMER_CPUS, String(process.pid)]);
    }
    for (const setting of NOISY_SETTINGS) {
      const bases =
        setting === 'split'
          ? { clientBase: split.clientBase, ownerBase: split.consoleBase }
          : { clientBase: base, ownerBase: base };
      log(`Warming up the ${setting} setting...`);
      await verifyTimes(NOISY_WARMUP, bases.clientBase);
      await readLoopsDuring(bases.ownerBase, () => verifyTimes(100, bases.clientBase));
      for (let run = 1; run <= NOISY_RUNS; run += 1) {
        log(
          `Verify while ${READERS} loops run the heaviest owner reads (${setting}, run ${run})...`,
        );
        noisy.push({ setting, run, ...(await noisyNeighbour(bases)) });
      }
    }

    log('Explaining the owner reads...');
    for (const [, path] of ownerReads) await ownerRead(path, { 'x-bench-explain': '1' });
    // The plans are written after each answer: give the last one a moment.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const plans = readFileSync(plansFile, 'utf8');
    const largeScans = sequentialScansOver(plans, LARGE_SCAN_ROWS);

    const ms = (value) => `${value.toFixed(1)} ms`;
    const size = (bytes) => (bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${bytes} B`);
    const pass = (ok) => (ok ? 'met' : 'MISSED');
    const lines = [
      `Latchkey bench:scale, ${new Date().toISOString().slice(0, 10)}`,
      `Machine: ${cpus()[0]?.model ?? 'unknown CPU'} x ${cpus().length}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB; Node ${process.version}`,
      `One vendor: ${process.env.SCALE_USERS ?? 100_000} end users, ${process.env.SCALE_LOGS ?? 1_000_000} activity rows, ${process.env.SCALE_BLACKLIST ?? 10_000} blacklist entries, ${process.env.SCALE_KEYS ?? 1_000_000} licence keys; ${SAMPLES} sequential requests per owner read`,
      '',
      '| owner read | p50 | p95 (target ≤ 50 ms) | answer |',
      '| --- | --- | --- | --- |',
      ...rows.map(
        (row) =>
          `| ${row.name} | ${ms(row.p50)} | ${ms(row.p95)} (${pass(row.p95 <= TARGETS.ownerReadP95Ms)}) | ${size(row.bytes)} |`,
      ),
      '',
      `CSV export of every key: ${(exportBytes / 2 ** 20).toFixed(1)} MiB in ${exportSeconds.toFixed(1)} s; server RSS ${(rssBefore.current / 1024).toFixed(0)} MiB before, peak ${(exportPeakKb / 1024).toFixed(0)} MiB during (sampled every 50 ms).`,
      `Retention sweep of ${retentionSweep.partitions} expired partitions of the log (${retentionSweep.rows} activity rows) and everything else due: ${(retentionSweep.ms / 1000).toFixed(2)} s${retentionSweep.postgresCpuMs === null ? '' : `, PostgreSQL's CPU ${(retentionSweep.postgresCpuMs / 1000).toFixed(2)} s`} (target ≤ 1 s: ${pass(retentionSweep.ms <= 1000 && (retentionSweep.postgresCpuMs ?? 0) <= 1000)}).`,
      `Generating 10,000 keys in one request: ${generateTimes.map((time) => `${(time / 1000).toFixed(2)} s`).join(', ')} (target < 2 s: ${pass(Math.max(...generateTimes) < 2000)}).`,
      '',
      '| client call | p50 | p95 |',
      '| --- | --- | --- |',
      `| login | ${ms(median(loginTimes))} | ${ms(percentile(loginTimes, 0.95))} |`,
      `| verify, idle | ${ms(median(idleVerify))} | ${ms(percentile(idleVerify, 0.95))} |`,
      '',
      `Verify while ${READERS} loops run the heaviest owner reads (${heavyReads.join(', ')}): "one" is one process serving everything, "split" the recommended production setting (CLIENT_API_PORT: the client API's worker and the console's, the console's at niceness ${process.env.CONSOLE_WORKER_NICENESS ?? 10}${process.env.CONSOLE_WORKER_CPUS ? ` on CPUs ${process.env.CONSOLE_WORKER_CPUS} and the client API's on the others` : ''}, on one PostgreSQL). The read loops run in a process of their own at niceness ${LOOPS_NICENESS}${LOOPS_CPUS === null ? '' : ` on CPUs ${LOOPS_CPUS}`}${TIMER_CPUS === null ? '' : `, the verify timer on CPUs ${TIMER_CPUS}`}; the reads alone and beside verify are timed in windows of the same length, alternating.`,
      '',
      `| setting | run | verify p95 idle | verify p95 loaded | × idle (≤ ${TARGETS.verifyUnderLoadRatio}×) | reads p95 alone | reads p95 beside verify | × alone (≤ ${TARGETS.readsUnderLoadRatio}×) | reads (alone, beside) |`,
      '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
      ...noisy.map(
        (row) =>
          `| ${row.setting} | ${row.run} | ${ms(row.idleP95)} | ${ms(row.loadedP95)} | ${(row.loadedP95 / row.idleP95).toFixed(2)}× (${pass(row.loadedP95 / row.idleP95 <= TARGETS.verifyUnderLoadRatio)}) | ${ms(row.readsAloneP95)} | ${ms(row.readsLoadedP95)} | ${(row.readsLoadedP95 / row.readsAloneP95).toFixed(2)}× (${pass(row.readsLoadedP95 / row.readsAloneP95 <= TARGETS.readsUnderLoadRatio)}) | ${row.readsAlone}, ${row.readsDone} |`,
      ),
      '',
      `Query plans: ${plansFile}`,
      largeScans.length
        ? `Sequential scans reading over ${LARGE_SCAN_ROWS.toLocaleString('en')} rows: ${largeScans.join('; ')}`
        : `No sequential scan reads over ${LARGE_SCAN_ROWS.toLocaleString('en')} rows (small tables are scanned: cheaper than an index there).`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    if (split) await stopChild(split.child);
    if (server) await stopChild(server.child);
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
