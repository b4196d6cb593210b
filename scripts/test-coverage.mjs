#!/usr/bin/env node
// `npm run test:coverage`: the server (unit and integration, on PGlite) and console suites
// under coverage-v8 (vitest.coverage.config.ts), then one lines total per project and for the
// whole. Every source file counts, so a file no test loads is in the total at 0%; the closing
// table also says how many such files each project has. Kept out of `npm test`, which does
// not pay for instrumentation.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const summaryPath = join(root, '.test-results/coverage/coverage-summary.json');

// Never a previous run's figures, should this one stop before writing its own.
rmSync(summaryPath, { force: true });
const result = spawnSync(
  join(root, 'node_modules/.bin', 'vitest'),
  ['run', '--config', 'vitest.coverage.config.ts'],
  { cwd: root, stdio: 'inherit', env: { ...process.env, TEST_DATABASE_URL: '' } },
);
if (!existsSync(summaryPath)) {
  console.error(`No coverage summary at ${relative(root, summaryPath)}.`);
  process.exit(1);
}

const projects = [
  { name: 'server', folder: 'apps/server/' },
  { name: 'console', folder: 'apps/console/' },
  // Loaded by both suites: its figure is what either project's tests reach.
  { name: 'contracts (shared)', folder: 'packages/contracts/' },
];
const totals = new Map(projects.map(({ name }) => [name, { covered: 0, total: 0, unloaded: 0 }]));
const whole = { covered: 0, total: 0, unloaded: 0 };

const summary = JSON.parse(readFileSync(summaryPath, 'utf8'));
for (const [file, { lines }] of Object.entries(summary)) {
  if (file === 'total') continue;
  const path = relative(root, file);
  const project = projects.find(({ folder }) => path.startsWith(folder));
  if (!project) throw new Error(`${path} belongs to no project: update scripts/test-coverage.mjs`);
  for (const sum of [totals.get(project.name), whole]) {
    sum.covered += lines.covered;
    sum.total += lines.total;
    // Not a line run: no test loads the file (or only its type imports).
    if (lines.total > 0 && lines.covered === 0) sum.unloaded += 1;
  }
}

const percent = ({ covered, total }) =>
  total === 0 ? '—' : `${((100 * covered) / total).toFixed(1)}%`;
const rows = [
  ['project', 'lines', 'covered / total', 'files at 0%'],
  ...projects.map(({ name }) => {
    const sum = totals.get(name);
    return [name, percent(sum), `${sum.covered} / ${sum.total}`, String(sum.unloaded)];
  }),
  ['whole', percent(whole), `${whole.covered} / ${whole.total}`, String(whole.unloaded)],
];
const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
console.log('\nLine coverage (every source file counted, loaded by a test or not):');
for (const row of rows) {
  console.log(
    `  ${row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('   ')}`,
  );
}
console.log(`Per file: ${relative(root, summaryPath)}`);
if (result.status !== 0) {
  // Written all the same (reportOnFailure), but a failing test's lines may be missing from it.
  console.error('Some tests failed: these figures are not those of a green suite.');
  process.exit(result.status ?? 1);
}
