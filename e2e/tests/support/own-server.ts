import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from '@playwright/test';

const repositoryRoot = join(import.meta.dirname, '..', '..', '..');

export interface OwnServer {
  /** http://localhost:<port>, the origin the console is served from. */
  baseUrl: string;
  /** Stops the server (and the emulator it started) and deletes its data directory. */
  stop(): Promise<void>;
}

async function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A free port whose `count - 1` successors are free too (the emulator's auth, hub and logging). */
async function findFreePorts(count: number): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    let isBlockFree = true;
    for (let offset = 0; offset < count && isBlockFree; offset += 1) {
      isBlockFree = await isPortFree(port + offset);
    }
    if (isBlockFree) return port;
  }
  throw new Error('no free port block found');
}

/**
 * Only what a person's shell hands `npm start`: none of this test run's settings (the shared
 * server's emulator, database or NODE_ENV) may leak into a server meant to be fresh.
 */
function shellEnvironment(): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of ['PATH', 'HOME', 'USER', 'LANG', 'TMPDIR']) {
    const value = process.env[name];
    if (value !== undefined) kept[name] = value;
  }
  return kept;
}

/**
 * A server of its own, started the way `npm start` starts one (scripts/start.mjs: the console
 * is built if stale, then the server, which starts the Auth emulator itself unless a real
 * Firebase project is configured), on free ports with an empty DATA_DIR. Answers once
 * /api/health does.
 */
export async function startOwnServer(
  mode: 'local' | 'production',
  { timeoutMs = 180_000 } = {},
): Promise<OwnServer> {
  const dataDir = mkdtempSync(join(tmpdir(), `latchkey-e2e-${mode}-`));
  const port = await findFreePorts(1);
  const baseUrl = `http://localhost:${port}`;
  const environment: Record<string, string> = {
    ...shellEnvironment(),
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
  };
  if (mode === 'local') {
    // The embedded default, only away from 9099, which another server may be using.
    environment.FIREBASE_AUTH_EMULATOR_HOST = `127.0.0.1:${await findFreePorts(3)}`;
  } else {
    // What production refuses to start without: a real Firebase project's web config (never
    // contacted here, as nobody signs in), a strong secret and the public origin.
    Object.assign(environment, {
      NODE_ENV: 'production',
      FIREBASE_PROJECT_ID: 'latchkey-offline-check',
      FIREBASE_API_KEY: 'offline-check-api-key',
      FIREBASE_AUTH_DOMAIN: 'latchkey-offline-check.firebaseapp.com',
      SERVER_SECRET: randomBytes(48).toString('base64'),
      PUBLIC_ORIGIN: baseUrl,
    });
  }

  const child = spawn(process.execPath, [join(repositoryRoot, 'scripts/start.mjs')], {
    cwd: repositoryRoot,
    env: environment,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const capture = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000));
  child.stdout.on('data', capture);
  child.stderr.on('data', capture);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      // start.mjs passes SIGTERM on; the server then stops its emulator before exiting.
      child.kill('SIGTERM');
      const isStopped = await Promise.race([
        exited.then(() => true),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 30_000)),
      ]);
      if (!isStopped) {
        child.kill('SIGKILL');
        await exited;
      }
    }
    rmSync(dataDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`the ${mode} server exited (${child.exitCode}):\n${output}`);
    }
    const isUp = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (isUp) return { baseUrl, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the ${mode} server did not become healthy in time:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const localHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Cuts the browser context off from everything but this machine, as on a machine with no
 * route to the internet: every request to another host fails. Returns the list of what was
 * refused, so a test can also show the page never needed it.
 */
export async function blockTheInternet(context: BrowserContext): Promise<string[]> {
  const refused: string[] = [];
  await context.route('**/*', async (route) => {
    const url = new URL(route.request().url());
    if (localHosts.has(url.hostname)) return route.continue();
    refused.push(url.href);
    return route.abort('internetdisconnected');
  });
  return refused;
}
