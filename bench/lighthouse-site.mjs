// What `npm run bench:lighthouse` measures against: the compiled server (dist/, from
// `npm run build`) serving the built console, with the Firebase Auth emulator, on a fresh
// PGlite directory; and a browser in which a test account has signed in through the console
// itself, with a few applications and end users, so its dashboard has rows to show.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { freePort, stopChild } from './bench-kit.mjs';
import { startTlsTerminator } from './tls-terminator.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
// Another build (a copy of an earlier dist/, say) is measured by naming its directory.
const distDir = resolve(process.env.LIGHTHOUSE_DIST_DIR ?? join(root, 'dist'));
const compiledServer = join(distDir, 'server/main.js');
const builtConsole = join(distDir, 'console/index.html');

/** The flags the browser tests launch Debian's Chromium with (no GPU, no background traffic). */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * Polls the health check until it answers 200: the Auth emulator, which it waits for, takes
 * about 12 s to start on an idle machine and several times that on a busy one.
 */
async function waitUntilHealthy(child, url, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

/**
 * Starts dist/server/main.js on a free port. NODE_ENV stays development: production refuses
 * the Auth emulator (it would accept unsigned tokens), and the emulator is the only identity
 * that works offline. What the console receives is the same either way: the same build, the
 * same precompressed assets and cache headers, the same security headers but HSTS.
 *
 * With `tls`, the browser reaches it through a TLS terminator speaking HTTP/2
 * (tls-terminator.mjs), as in a deployment; `spkiSha256` is then the key the browser must
 * trust (launchBrowser's `trustedSpki`).
 */
export async function startCompiledServer({ tls = false } = {}) {
  if (!existsSync(compiledServer) || !existsSync(builtConsole)) {
    throw new Error(`No compiled server or console in ${distDir}: run \`npm run build\` first`);
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'latchkey-lighthouse-'));
  const port = await freePort();
  // A random block (the emulator also takes the next two ports), as the browser tests do.
  const emulatorHost = `127.0.0.1:${20_000 + Math.floor(Math.random() * 10_000) * 3}`;
  // PGlite in the temporary directory, whatever database this shell is set up for.
  const terminator = tls ? await startTlsTerminator(`http://127.0.0.1:${port}`) : null;
  const inherited = { ...process.env };
  delete inherited.DATABASE_URL;
  delete inherited.REDIS_URL;
  const child = spawn(process.execPath, [compiledServer], {
    cwd: root,
    env: {
      ...inherited,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      FIREBASE_AUTH_EMULATOR_HOST: emulatorHost,
      SERVER_SECRET: randomBytes(32).toString('base64url'),
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
      // The origin the browser sees: the owner API's same-origin check compares with it.
      ...(terminator ? { PUBLIC_ORIGIN: terminator.origin } : {}),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const serverOrigin = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await terminator?.stop();
    await stopChild(child);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitUntilHealthy(child, `${serverOrigin}/api/health`);
  } catch (error) {
    await stop();
    throw error;
  }
  return { origin: terminator?.origin ?? serverOrigin, spkiSha256: terminator?.spkiSha256, stop };
}

/**
 * Chromium with a DevTools port for Lighthouse. Its default profile is the one Lighthouse's
 * tab uses, so what a page stores there (the session cookie, Firebase's signed-in user) is
 * what the measured page finds.
 */
export async function launchBrowser({ trustedSpki } = {}) {
  const profileDir = mkdtempSync(join(tmpdir(), 'latchkey-lighthouse-profile-'));
  const debuggingPort = await freePort();
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      ...CHROMIUM_ARGS,
      `--remote-debugging-port=${debuggingPort}`,
      // The TLS terminator's self-signed certificate, trusted as a real one would be.
      ...(trustedSpki ? [`--ignore-certificate-errors-spki-list=${trustedSpki}`] : []),
    ],
  });
  return {
    context,
    debuggingPort,
    close: async () => {
      await context.close();
      rmSync(profileDir, { recursive: true, force: true });
    },
  };
}

/**
 * Signs a new test account in on the console's sign-in page (through the hook the console
 * offers only with the emulator), then creates `applications` applications with
 * `usersPerApplication` end users each through the owner API, from the page (same origin,
 * so the session cookie and the Origin check pass as they do for the console's own calls).
 */
export async function signInWithSampleData(
  context,
  origin,
  { applications = 3, usersPerApplication = 4 } = {},
) {
  const page = await context.newPage();
  try {
    await page.goto(`${origin}/firebase-login`);
    await page.waitForFunction(() => globalThis.__latchkeyEmulator !== undefined, null, {
      timeout: 60_000,
    });
    const id = randomBytes(4).toString('hex');
    await page.evaluate((claims) => globalThis.__latchkeyEmulator.signInWithGoogleClaims(claims), {
      sub: `lighthouse-${id}`,
      email: `lighthouse-${id}@example.com`,
      name: 'Bench Owner',
    });
    await page.waitForURL(`${origin}/`, { timeout: 30_000 });
    await page.evaluate(
      async ({ applications, usersPerApplication }) => {
        const post = async (path, body) => {
          const response = await fetch(path, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
          if (response.status !== 201) {
            throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
          }
          return response.json();
        };
        for (let index = 1; index <= applications; index += 1) {
          const application = await post('/api/applications', {
            name: `Bench App ${index}`,
            description: 'Measured by npm run bench:lighthouse',
          });
          for (let user = 1; user <= usersPerApplication; user += 1) {
            await post(`/api/applications/${application.id}/users`, {
              username: `user${index}x${user}`,
              password: 'bench-password-1234',
            });
          }
        }
      },
      { applications, usersPerApplication },
    );
  } finally {
    await page.close();
  }
}
