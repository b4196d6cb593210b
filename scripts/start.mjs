#!/usr/bin/env node
// `npm start`: build the console and the SDK packages if their sources changed since the last
// build, then run the server (which starts the Firebase Auth emulator itself when no real
// project is configured).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const consoleDir = join(root, 'apps/console');
const builtIndex = join(consoleDir, 'dist/index.html');

function newestModification(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce(
    (newest, entry) => Math.max(newest, newestModification(join(path, entry))),
    0,
  );
}

const sources = ['src', 'public', 'index.html', 'vite.config.ts'].map((entry) =>
  join(consoleDir, entry),
);
sources.push(join(root, 'packages/contracts/src'));
const isStale =
  !existsSync(builtIndex) ||
  Math.max(...sources.map(newestModification)) > statSync(builtIndex).mtimeMs;

if (isStale && process.env.SERVE_CONSOLE !== 'false') {
  console.log('Building the console…');
  const build = spawnSync('npm', ['run', 'build', '--silent', '--workspace', 'apps/console'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// The client SDK packages served at /sdk/: rebuilt only when their sources changed, and a
// package whose toolchain this machine lacks is left out with a line saying so.
spawnSync(process.execPath, [join(root, 'scripts/build-sdks.mjs')], {
  cwd: root,
  stdio: 'inherit',
});

// A person at a terminal reads one line per request; production keeps JSON for collectors.
const logFormat =
  process.env.LOG_FORMAT ?? (process.env.NODE_ENV === 'production' ? 'json' : 'pretty');
const server = spawn(process.execPath, ['--import', 'tsx', join(root, 'apps/server/src/main.ts')], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, LOG_FORMAT: logFormat },
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => server.kill(signal));
}
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
