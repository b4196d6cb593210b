#!/usr/bin/env node
// `npm test`: every check, in order of speed. Any failing step fails the run. Test counts
// from the vitest and Playwright JSON reports are summed into one closing line.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const reportsDir = join(root, '.test-results');
rmSync(reportsDir, { recursive: true, force: true });
mkdirSync(reportsDir, { recursive: true });
const isCi = process.env.CI === 'true';
const bin = (name) => join(root, 'node_modules/.bin', name);

// The commands of an `isConcurrent` step (single-threaded tools) run side by side, their
// output printed whole as each ends; the others run one after another.
const steps = [
  {
    name: 'typecheck',
    isConcurrent: true,
    command: [bin('tsc'), '-p', 'packages/contracts'],
    also: [
      [bin('tsc'), '-p', 'apps/server'],
      [bin('tsc'), '-p', 'apps/console'],
      [bin('tsc'), '-p', 'e2e'],
      [bin('tsc'), '-p', 'samples'],
      // The SDKs' sources and their conformance runner (which also holds the TypeScript SDK's
      // wire types to the contracts).
      [bin('tsc'), '-p', 'sdks'],
      // The benchmarks seed through the server's verbs: a verb's new requirement breaks them.
      [bin('tsc'), '-p', 'bench'],
    ],
  },
  {
    name: 'lint',
    isConcurrent: true,
    command: [bin('eslint'), '.', '--max-warnings=0'],
    also: [
      [bin('prettier'), '--check', '.'],
      // The server's layers (.dependency-cruiser.cjs): no arrow may run back up.
      ['npm', 'run', 'lint:layers', '--silent'],
    ],
  },
  {
    name: 'unit and integration tests (PGlite)',
    command: [
      bin('vitest'),
      'run',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${join(reportsDir, 'vitest-pglite.json')}`,
    ],
    env: { TEST_DATABASE_URL: '' },
  },
];

if (process.env.TEST_DATABASE_URL) {
  steps.push({
    name: 'server integration tests (PostgreSQL)',
    command: [
      bin('vitest'),
      'run',
      '--project',
      'server',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${join(reportsDir, 'vitest-postgres.json')}`,
    ],
  });
  // The compiled build, installed with `npm ci --omit=dev` in a folder of its own and run
  // with NODE_ENV=production on a fresh PostgreSQL database (apps/server/test/production-build.test.ts).
  steps.push({
    name: 'production build (compiled server on PostgreSQL)',
    command: [
      bin('vitest'),
      'run',
      '--config',
      'apps/server/vitest.production-build.config.ts',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${join(reportsDir, 'vitest-production-build.json')}`,
    ],
  });
} else if (isCi) {
  console.error(
    'CI=true but TEST_DATABASE_URL is not set: the PostgreSQL run and the production-build test cannot be skipped in CI.',
  );
  process.exit(1);
} else {
  console.warn(
    'Skipping the PostgreSQL run of the server suite and the production-build test (set TEST_DATABASE_URL=postgres://… to include them).',
  );
}

// The server suite's Redis tests start their own redis-server when TEST_REDIS_URL is unset
// and skip when they cannot; CI must run them, so it names the Redis it started.
if (isCi && !process.env.TEST_REDIS_URL) {
  console.error('CI=true but TEST_REDIS_URL is not set: the Redis tests cannot be skipped in CI.');
  process.exit(1);
}

steps.push(
  {
    name: 'console build',
    command: ['npm', 'run', 'build', '--silent', '--workspace', 'apps/console'],
  },
  {
    name: 'browser tests (Chromium)',
    command: [bin('playwright'), 'test', '-c', 'e2e/playwright.config.ts'],
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: join(reportsDir, 'playwright.json') },
  },
);

const failedSteps = [];
for (const step of steps) {
  console.log(`\n━━ ${step.name}`);
  const started = Date.now();
  const commands = [step.command, ...(step.also ?? [])];
  const options = { cwd: step.cwd ?? root, env: { ...process.env, ...step.env } };
  if (step.isConcurrent) {
    const statuses = await runSideBySide(commands, options);
    if (statuses.some((status) => status !== 0)) failedSteps.push(step.name);
  } else {
    for (const [executable, ...args] of commands) {
      const result = spawnSync(executable, args, { ...options, stdio: 'inherit' });
      if (result.status !== 0) {
        failedSteps.push(step.name);
        break;
      }
    }
  }
  console.log(
    `━━ ${step.name}: ${failedSteps.includes(step.name) ? 'FAILED' : 'ok'} (${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
}

let passed = 0;
let failed = 0;
let skipped = 0;
// Named here again because only the tail of a CI log may be kept: a failure far up in a
// long run must still be readable from its last lines.
const failedTests = [];
for (const file of ['vitest-pglite.json', 'vitest-postgres.json', 'vitest-production-build.json']) {
  const path = join(reportsDir, file);
  if (!existsSync(path)) continue;
  const report = JSON.parse(readFileSync(path, 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + report.numTodoTests;
  for (const suite of report.testResults) {
    const where = relative(root, suite.name);
    const failedInSuite = suite.assertionResults.filter((test) => test.status === 'failed');
    for (const test of failedInSuite) {
      failedTests.push(
        `${file}: ${where} › ${test.fullName}\n    ${firstLine(test.failureMessages)}`,
      );
    }
    // A suite that fails outside any test (an import error, a failing hook) lists no test.
    if (suite.status === 'failed' && failedInSuite.length === 0) {
      failedTests.push(`${file}: ${where}\n    ${firstLine([suite.message])}`);
    }
  }
}
const playwrightReport = join(reportsDir, 'playwright.json');
if (existsSync(playwrightReport)) {
  const { stats, suites } = JSON.parse(readFileSync(playwrightReport, 'utf8'));
  passed += stats.expected + stats.flaky;
  failed += stats.unexpected;
  skipped += stats.skipped;
  for (const spec of playwrightSpecs(suites)) {
    for (const test of spec.tests) {
      if (test.status !== 'unexpected') continue;
      const errors = test.results.flatMap((result) => result.errors ?? []).map((e) => e.message);
      failedTests.push(`playwright: ${spec.file} › ${spec.title}\n    ${firstLine(errors)}`);
    }
  }
}

console.log('');
if (failedTests.length > 0) console.log(`Failed tests:\n  ${failedTests.join('\n  ')}`);
if (failedSteps.length > 0) console.log(`Failed steps: ${failedSteps.join(', ')}`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failedSteps.length > 0 || failed > 0 || passed === 0 ? 1 : 0);

/** Runs `commands` at once; each one's output is printed whole when it ends. */
function runSideBySide(commands, options) {
  return Promise.all(
    commands.map(
      ([executable, ...args]) =>
        new Promise((resolve) => {
          const child = spawn(executable, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
          const output = [];
          child.stdout.on('data', (chunk) => output.push(chunk));
          child.stderr.on('data', (chunk) => output.push(chunk));
          child.once('error', (error) => {
            console.error(`${executable}: ${error.message}`);
            resolve(1);
          });
          child.once('close', (status) => {
            process.stdout.write(Buffer.concat(output));
            resolve(status);
          });
        }),
    ),
  );
}

function firstLine(messages) {
  const text = stripVTControlCharacters((messages ?? []).find(Boolean) ?? '(no message)');
  return text.split('\n').find((line) => line.trim()) ?? '';
}

function* playwrightSpecs(suites) {
  for (const suite of suites ?? []) {
    yield* suite.specs ?? [];
    yield* playwrightSpecs(suite.suites);
  }
}
