#!/usr/bin/env node
// `npm run bench:lighthouse`: Lighthouse's mobile preset (its default: a mid-range phone,
// slow 4G and a 4x slower CPU, simulated) on the landing page `/` as a first-time visitor
// sees it, and on `/dashboard` as a signed-in owner with a few applications and end users
// sees it. Needs `npm run build` first (it measures dist/, as shipped); starts the compiled
// server with the Auth emulator on a free port and a temporary data directory, runs each page
// LIGHTHOUSE_RUNS (5) times on a cold HTTP cache, and prints the median of each category score
// and metric, with the load average. Exits 1 when a median misses a target (performance 90,
// accessibility, best practices and SEO 100 on both pages); `--no-check` only reports.
// The browser reaches the server through a TLS terminator speaking HTTP/2, as in every
// deployment (the server speaks plain HTTP behind nginx, Caddy or a load balancer);
// LIGHTHOUSE_PROTOCOL=http1.1 measures the server's own port instead, plain HTTP/1.1, where a
// page's scripts come six at a time.
// LIGHTHOUSE_REPORT_DIR=<dir> keeps each run's full JSON report (for Lighthouse's viewer);
// LIGHTHOUSE_DIST_DIR=<dir> measures another build than dist/ (a copy kept from before a change,
// beside a node_modules link: its server resolves its packages from there).
// The machine is shared: compare figures from one run of this script, never across runs.
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import lighthouse from 'lighthouse';
import { median } from './bench-kit.mjs';
import { launchBrowser, signInWithSampleData, startCompiledServer } from './lighthouse-site.mjs';

const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 5);
const PROTOCOLS = ['h2', 'http1.1'];
const PROTOCOL = process.env.LIGHTHOUSE_PROTOCOL ?? 'h2';
if (!PROTOCOLS.includes(PROTOCOL)) {
  throw new Error(`LIGHTHOUSE_PROTOCOL must be one of ${PROTOCOLS.join(', ')}, not ${PROTOCOL}`);
}
// Each run's full report (JSON, for Lighthouse's viewer) goes here when set.
const REPORT_DIR = process.env.LIGHTHOUSE_REPORT_DIR;
const isCheckWanted = !process.argv.includes('--no-check');
const log = (message) => process.stderr.write(`${message}\n`);

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const TARGETS = { performance: 90, accessibility: 100, 'best-practices': 100, seo: 100 };
const METRICS = [
  ['FCP', 'first-contentful-paint', 'ms'],
  ['LCP', 'largest-contentful-paint', 'ms'],
  ['TBT', 'total-blocking-time', 'ms'],
  ['CLS', 'cumulative-layout-shift', ''],
  ['SI', 'speed-index', 'ms'],
];

/** Lighthouse's default (mobile) configuration, clearing only the storage types given. */
const mobileConfig = (clearStorageTypes) => ({
  extends: 'lighthouse:default',
  settings: { onlyCategories: CATEGORIES, ...(clearStorageTypes ? { clearStorageTypes } : {}) },
});

// A signed-in owner keeps the session cookie and Firebase's user (IndexedDB, localStorage);
// the HTTP cache is cleared before every run all the same, so each load is a cold one.
const SIGNED_IN_STORAGE_RESET = [
  'file_systems',
  'shader_cache',
  'service_workers',
  'cache_storage',
];

// Lighthouse's own verdict on a trace it failed to record ("Please run Lighthouse again"): the
// page is not at fault, so such a run is repeated, a few times at most.
const RETRIED_RUNTIME_ERRORS = new Set(['NO_NAVSTART', 'NO_FCP', 'NO_TRACING_STARTED']);
const MAX_ATTEMPTS_PER_RUN = 3;

async function runLighthouse(url, debuggingPort, clearStorageTypes) {
  for (let attempt = 1; ; attempt += 1) {
    const result = await lighthouse(
      url,
      { port: debuggingPort, output: 'json', logLevel: 'error' },
      mobileConfig(clearStorageTypes),
    );
    const error = result.lhr.runtimeError;
    if (!error) return result;
    if (!RETRIED_RUNTIME_ERRORS.has(error.code) || attempt === MAX_ATTEMPTS_PER_RUN) {
      throw new Error(`${url}: ${error.message}`);
    }
    log(`  ${new URL(url).pathname}: ${error.code}, recording again`);
  }
}

async function measure(url, debuggingPort, clearStorageTypes) {
  const runs = [];
  for (let run = 1; run <= RUNS; run += 1) {
    const result = await runLighthouse(url, debuggingPort, clearStorageTypes);
    const { lhr } = result;
    if (REPORT_DIR) {
      mkdirSync(REPORT_DIR, { recursive: true });
      const name = new URL(url).pathname.replace(/\W+/g, '') || 'landing';
      writeFileSync(join(REPORT_DIR, `${name}-${run}.json`), result.report);
    }
    const figures = {};
    for (const category of CATEGORIES) {
      figures[category] = Math.round((lhr.categories[category].score ?? 0) * 100);
    }
    for (const [name, audit] of METRICS) figures[name] = lhr.audits[audit].numericValue;
    const failed = CATEGORIES.flatMap((category) =>
      lhr.categories[category].auditRefs
        .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id].score ?? 1) < 1)
        .map((ref) => `${category}:${ref.id}`),
    );
    log(
      `  ${new URL(url).pathname} run ${run}/${RUNS}: ` +
        `${CATEGORIES.map((category) => figures[category]).join('/')}` +
        (failed.length > 0 ? `; short of full marks: ${failed.join(', ')}` : ''),
    );
    runs.push(figures);
  }
  return Object.fromEntries(
    Object.keys(runs[0]).map((key) => [key, median(runs.map((figures) => figures[key]))]),
  );
}

function formatRow(page, figures) {
  const metrics = METRICS.map(([name, , unit]) =>
    unit === 'ms' ? `${Math.round(figures[name])} ms` : figures[name].toFixed(3),
  );
  return `| ${page} | ${CATEGORIES.map((category) => figures[category]).join(' | ')} | ${metrics.join(' | ')} |`;
}

async function main() {
  const loadBefore = loadavg();
  log(`Starting the compiled server with the Auth emulator (${PROTOCOL})...`);
  const server = await startCompiledServer({ tls: PROTOCOL === 'h2' });
  let browser;
  try {
    browser = await launchBrowser({ trustedSpki: server.spkiSha256 });
    const results = {};
    // The landing page first, as a first-time visitor: Lighthouse's full storage reset.
    log(`Lighthouse (mobile preset), ${RUNS} runs a page:`);
    results['/'] = await measure(`${server.origin}/`, browser.debuggingPort);
    await signInWithSampleData(browser.context, server.origin);
    results['/dashboard'] = await measure(
      `${server.origin}/dashboard`,
      browser.debuggingPort,
      SIGNED_IN_STORAGE_RESET,
    );
    const loadAfter = loadavg();

    const header = `| page | ${CATEGORIES.join(' | ')} | ${METRICS.map(([name]) => name).join(' | ')} |`;
    process.stdout.write(
      [
        `Medians of ${RUNS} runs over ${PROTOCOL}; load average (1 min) ${loadBefore[0].toFixed(2)} before, ${loadAfter[0].toFixed(2)} after.`,
        header,
        header.replace(/[^|]+/g, ' --- '),
        ...Object.entries(results).map(([page, figures]) => formatRow(page, figures)),
        '',
      ].join('\n'),
    );

    const misses = Object.entries(results).flatMap(([page, figures]) =>
      CATEGORIES.filter((category) => figures[category] < TARGETS[category]).map(
        (category) => `${page} ${category} ${figures[category]} < ${TARGETS[category]}`,
      ),
    );
    if (misses.length > 0) {
      log(`Missed: ${misses.join('; ')}`);
      if (isCheckWanted) process.exitCode = 1;
    }
  } finally {
    await browser?.close();
    await server.stop();
  }
}

main().catch((error) => {
  log(error.stack ?? String(error));
  process.exit(1);
});
