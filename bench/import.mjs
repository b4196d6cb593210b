#!/usr/bin/env node
// `npm run bench:import`: a KeyAuth users export of IMPORT_USERS (100,000) users imported over
// HTTP, as the console does it (the target: under 60 s, preview included).
//
// - Generates a panel export (KeyAuth's users JSON): every user with a bcrypt hash (one hash
//   for all: making 100,000 would measure this script), an HWID and a subscription.
// - For each database in IMPORT_DATABASES (default `pglite,postgres`), starts Latchkey
//   (bench/owner-app-server.ts) on a fresh PGlite directory or a throwaway PostgreSQL database
//   (bench-kit.mjs), creates a plan, uploads the file (the preview), starts the import with the
//   level mapped to the plan and polls its progress until it is done.
// - Then checks what was written (every user created, none skipped), starts it again (a done
//   import writes nothing twice), and prints preview, import and total times per database.
import { hashSync } from '@node-rs/bcrypt';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { withOwnerAppServer } from './bench-kit.mjs';

const USERS = Number(process.env.IMPORT_USERS ?? 100_000);
const DATABASES = (process.env.IMPORT_DATABASES ?? 'pglite,postgres').split(',');
const TARGET_MS = 60_000;
const POLL_MS = 250;

const log = (message) => process.stderr.write(`${message}\n`);

function keyAuthUsersExport() {
  const hash = hashSync('correct horse battery staple', 4).replace(/^\$2b\$/, '$2y$');
  const expiry = String(Math.floor(Date.UTC(2031, 0, 1) / 1000));
  const users = [];
  const subscription = [];
  for (let index = 0; index < USERS; index += 1) {
    users.push({
      username: `user${index}`,
      email: null,
      password: hash,
      hwid: `HWID-${index}`,
      banned: null,
      ip: '10.0.0.1',
    });
    subscription.push({ user: `user${index}`, subscription: 'default', expiry });
  }
  return Buffer.from(JSON.stringify({ users, subscription }));
}

async function call(base, sessionToken, method, path, { json, bytes } = {}) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      cookie: `latchkey_session=${sessionToken}`,
      origin: base,
      accept: 'application/json',
      ...(json !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(bytes !== undefined ? { 'content-type': 'application/octet-stream' } : {}),
    },
    body: json !== undefined ? JSON.stringify(json) : bytes,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text);
}

async function measure(kind, file) {
  return withOwnerAppServer(kind, async ({ port, sessionToken, applicationId }) => {
    const base = `http://127.0.0.1:${port}`;
    const api = (method, path, body) => call(base, sessionToken, method, path, body);
    const plan = await api('POST', `/api/applications/${applicationId}/plans`, {
      json: { name: 'Imported' },
    });

    const startedAt = performance.now();
    const preview = await api(
      'POST',
      `/api/applications/${applicationId}/imports?source=keyauth&kind=users`,
      { bytes: file },
    );
    const previewMs = performance.now() - startedAt;
    const importPath = `/api/applications/${applicationId}/imports/${preview.id}`;
    let progress = await api('POST', `${importPath}/start`, {
      json: { levelPlans: { default: plan.id } },
    });
    let reported = 0;
    while (progress.status === 'running') {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      progress = await api('GET', importPath);
      if (progress.doneRows - reported >= USERS / 10) {
        reported = progress.doneRows;
        log(`  ${progress.doneRows} of ${progress.readableRows} rows`);
      }
    }
    const totalMs = performance.now() - startedAt;
    if (progress.status !== 'done' || progress.createdRows !== USERS) {
      throw new Error(`import ended ${progress.status}: ${JSON.stringify(progress)}`);
    }
    const again = await api('POST', `${importPath}/start`, {
      json: { levelPlans: { default: plan.id } },
    });
    if (again.createdRows !== USERS || again.doneRows !== USERS) {
      throw new Error(`a second start changed the counts: ${JSON.stringify(again)}`);
    }
    return { kind, previewMs, importMs: totalMs - previewMs, totalMs };
  });
}

log(`Generating a KeyAuth users export of ${USERS} users...`);
const file = keyAuthUsersExport();
log(`${(file.length / 1024 / 1024).toFixed(1)} MiB; load average ${loadavg()[0].toFixed(2)}`);
const results = [];
for (const kind of DATABASES) results.push(await measure(kind, file));

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
console.log(
  `\nKeyAuth import of ${USERS} users, ${cpus().length} cores, load average ${loadavg()[0].toFixed(2)} at the end\n`,
);
console.log('| database   | preview | import  | total   | target < 60 s |');
console.log('| ---------- | ------- | ------- | ------- | ------------- |');
for (const { kind, previewMs, importMs, totalMs } of results) {
  const name = kind === 'postgres' ? 'PostgreSQL' : 'PGlite';
  console.log(
    `| ${name.padEnd(10)} | ${seconds(previewMs).padEnd(7)} | ${seconds(importMs).padEnd(7)} | ${seconds(totalMs).padEnd(7)} | ${totalMs < TARGET_MS ? 'met' : '**missed**'}${' '.repeat(totalMs < TARGET_MS ? 10 : 4)} |`,
  );
}
