#!/usr/bin/env node
// `npm run bench:sdks`: what each client SDK adds to a verify round trip, and each package's
// size. Starts the bench's Latchkey server on PostgreSQL (a throwaway database, as `npm run
// bench`), builds and installs each SDK as its conformance run does (sdks/test/installed-*.ts)
// and, through that language's conformance driver, times SDK_CALLS (500) verify calls one after
// another through the SDK, then the same number as a plain HTTP request in the same language
// (the same headers and body, the answer read and parsed, its signature not checked): the
// difference is what the SDK's checks and plumbing cost a call. SDK_ROUNDS (5) rounds,
// alternating, after SDK_WARM_UP_CALLS (300) of each; medians per call. Package sizes come from
// `npm run build:sdks`' index. One run's figures compare only with each other.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchServerEnv, median, prepareDatabase, startChild, stopChild } from './bench-kit.mjs';
import { canBuildCppSdk, installCppSdk } from '../sdks/test/installed-cpp-sdk.ts';
import { canBuildPythonSdk, installPythonSdk } from '../sdks/test/installed-python-sdk.ts';
import { installTypeScriptSdk } from '../sdks/test/installed-typescript-sdk.ts';
import { typeScriptDriver } from '../sdks/test/typescript-driver.ts';

const CALLS = Number(process.env.SDK_CALLS ?? 500);
const ROUNDS = Number(process.env.SDK_ROUNDS ?? 5);
const WARM_UP_CALLS = Number(process.env.SDK_WARM_UP_CALLS ?? 300);
const root = fileURLToPath(new URL('..', import.meta.url));
const log = (message) => process.stderr.write(`${message}\n`);

/** Each SDK this machine can build, by the language ids of /sdk/index.json. */
async function sdkInstallers() {
  const installers = [
    {
      language: 'nodejs',
      label: 'Node.js (@latchkey/client)',
      install: async () => {
        const sdk = await installTypeScriptSdk();
        return { driver: typeScriptDriver(sdk.imported), remove: sdk.remove };
      },
    },
  ];
  if (canBuildPythonSdk()) {
    installers.push({ language: 'python', label: 'Python (latchkey)', install: installPythonSdk });
  }
  const csharp = await import('../sdks/test/installed-csharp-sdk.ts').catch(() => null);
  if (csharp?.canBuildCsharpSdk()) {
    installers.push({
      language: 'csharp',
      label: 'C# (Latchkey.Client)',
      install: csharp.installCsharpSdk,
    });
  }
  if (canBuildCppSdk()) {
    installers.push({ language: 'cpp', label: 'C++ (latchkey)', install: installCppSdk });
  }
  return installers;
}

/** Microseconds per call of `op` over one batch of `count` calls. */
async function batch(driver, op, request, count) {
  const { elapsedMs, value } = await driver.send(op, { ...request, count });
  if (value?.code !== 'OK') throw new Error(`${op}: ${JSON.stringify(value)}`);
  return (elapsedMs * 1000) / count;
}

log('building the SDK packages (npm run build:sdks)…');
const build = spawnSync(process.execPath, [join(root, 'scripts/build-sdks.mjs')], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
});
if (build.status !== 0) process.exit(build.status ?? 1);
const index = JSON.parse(readFileSync(join(root, 'sdks/dist/index.json'), 'utf8'));

const database = await prepareDatabase();
const dataDir = mkdtempSync(join(tmpdir(), 'latchkey-bench-sdks-'));
let server;
const results = [];
try {
  log(`starting Latchkey on ${database.label}…`);
  const started = await startChild(
    ['--import', 'tsx', 'bench/latchkey-server.ts'],
    benchServerEnv({
      databaseUrl: database.url,
      dataDir,
      BENCH_USERS: '10',
      BENCH_REDEEM_KEYS: '1',
      BENCH_KEY_LOGINS: '1',
      BENCH_LOCKED_USERS: '1',
    }),
  );
  server = started.child;
  const { info } = started;
  const baseUrl = `http://127.0.0.1:${info.port}`;
  const user = info.users[0];
  const verifyInput = { userId: user.id, entitlements: ['PRO'] };
  const rawRequest = {
    url: `${baseUrl}/api/v1/verify`,
    apiKey: info.apiKey,
    body: { user_id: user.id, entitlements: ['PRO'] },
  };

  for (const { language, label, install } of await sdkInstallers()) {
    log(`${label}: building and installing…`);
    const sdk = await install();
    try {
      await sdk.driver.send('construct', {
        options: {
          baseUrl,
          apiKey: info.apiKey,
          publicKey: info.publicKey,
          version: info.version,
          hwid: 'bench-machine',
          timeoutMs: 30_000,
        },
      });
      const sdkCall = { call: 'verify', input: verifyInput };
      await batch(sdk.driver, 'timeCalls', sdkCall, WARM_UP_CALLS);
      await batch(sdk.driver, 'timeRawCalls', rawRequest, WARM_UP_CALLS);
      const sdkRounds = [];
      const rawRounds = [];
      // Alternating, so a change in the machine's load falls on both alike.
      for (let round = 0; round < ROUNDS; round += 1) {
        sdkRounds.push(await batch(sdk.driver, 'timeCalls', sdkCall, CALLS));
        rawRounds.push(await batch(sdk.driver, 'timeRawCalls', rawRequest, CALLS));
      }
      await sdk.driver.send('dispose');
      const packaged = index.packages.find((entry) => entry.language === language);
      const result = {
        label,
        packageFile: packaged?.file ?? '(not built)',
        packageBytes: packaged?.size ?? null,
        sdkMicroseconds: median(sdkRounds),
        rawMicroseconds: median(rawRounds),
      };
      results.push(result);
      log(`  ${JSON.stringify(result)}`);
    } finally {
      await sdk.remove();
    }
  }
} finally {
  if (server) await stopChild(server);
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
}

const kib = (bytes) => (bytes === null ? '—' : `${(bytes / 1024).toFixed(1)} KiB`);
const us = (value) => `${Math.round(value)} µs`;
console.log(
  `verify, ${ROUNDS} rounds of ${CALLS} sequential calls each way, ${cpus().length} CPUs, load ${loadavg()[0].toFixed(2)}`,
);
console.log('| SDK | package | size | verify via SDK | plain HTTP | SDK overhead |');
console.log('|---|---|---|---|---|---|');
for (const result of results) {
  console.log(
    `| ${result.label} | \`${result.packageFile}\` | ${kib(result.packageBytes)} | ${us(result.sdkMicroseconds)} | ${us(result.rawMicroseconds)} | ${us(result.sdkMicroseconds - result.rawMicroseconds)} |`,
  );
}
