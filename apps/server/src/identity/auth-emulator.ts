import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

export interface RunningAuthEmulator {
  /** True when this process started it (and so must stop it). */
  isOwnedByUs: boolean;
  stop(): Promise<void>;
}

interface Logger {
  info(message: string): void;
  warn(message: string): void;
}

const consoleLogger: Logger = {
  info: (message) => console.log(message),
  warn: (message) => console.warn(message),
};

export async function isAuthEmulatorReady(host: string): Promise<boolean> {
  try {
    const response = await fetch(`http://${host}/`, { signal: AbortSignal.timeout(1000) });
    const body = (await response.json()) as { authEmulator?: { ready?: boolean } };
    return body.authEmulator?.ready === true;
  } catch {
    return false;
  }
}

/**
 * Starts the Firebase Auth emulator from firebase-tools, unless one already answers at
 * `host` (tests and a second server share one). Its accounts are imported from and exported
 * to `stateDir`, so a Google account keeps its uid across restarts.
 */
export async function startAuthEmulator(options: {
  host: string;
  projectId: string;
  stateDir: string;
  log?: Logger;
  timeoutMs?: number;
}): Promise<RunningAuthEmulator> {
  const log = options.log ?? consoleLogger;
  if (await isAuthEmulatorReady(options.host)) {
    log.info(`Using the Firebase Auth emulator already running at ${options.host}`);
    return { isOwnedByUs: false, stop: async () => {} };
  }

  const [hostname = '127.0.0.1', portText = '9099'] = options.host.split(':');
  const port = Number(portText);
  const workDir = join(options.stateDir, 'workdir');
  const exportDir = join(options.stateDir, 'export');
  mkdirSync(workDir, { recursive: true });
  // Hub and logging ports sit beside the auth port so several emulators can coexist.
  writeFileSync(
    join(workDir, 'firebase.json'),
    JSON.stringify({
      emulators: {
        auth: { host: hostname, port },
        hub: { host: hostname, port: port + 1 },
        logging: { host: hostname, port: port + 2 },
        ui: { enabled: false },
        singleProjectMode: true,
      },
    }),
  );

  const firebaseCli = createRequire(import.meta.url).resolve('firebase-tools/lib/bin/firebase.js');
  const args = [
    firebaseCli,
    'emulators:start',
    '--only',
    'auth',
    '--project',
    options.projectId,
    '--export-on-exit',
    exportDir,
  ];
  if (existsSync(join(exportDir, 'firebase-export-metadata.json'))) {
    args.push('--import', exportDir);
  }

  // Its own process group: a terminal's Ctrl-C must not reach it directly, because a second
  // SIGINT (ours, during shutdown) makes firebase-tools quit without exporting its accounts.
  const child = spawn(process.execPath, args, {
    cwd: workDir,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    // firebase-tools finds "its" hub through a locator file named after the project in the
    // temp dir; emulators of the same project (dev server, tests) would otherwise export
    // each other's accounts. A private TMPDIR keeps each one to itself.
    env: { ...process.env, FIREBASE_AUTH_EMULATOR_HOST: '', TMPDIR: workDir },
  });
  // Should this process die without a graceful stop, the emulator must not outlive it.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.removeListener('exit', killOnExit));
  let output = '';
  // The auth port answers before the accounts are imported (firebase-tools starts the
  // emulator, then imports into it): a sign-in in between would get a new uid for a known
  // account. firebase-tools prints this line once the import is done.
  let isImportDone = false;
  const capture = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8000);
    if (!isImportDone && output.includes('All emulators ready')) isImportDone = true;
  };
  child.stdout?.on('data', capture);
  child.stderr?.on('data', capture);

  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  while (!(isImportDone && (await isAuthEmulatorReady(options.host)))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`The Firebase Auth emulator did not start at ${options.host}:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  log.info(`Firebase Auth emulator ready at ${options.host}`);
  return { isOwnedByUs: true, stop: () => stopChild(child, log) };
}

/** SIGINT lets the emulator export its accounts before it exits. */
async function stopChild(child: ChildProcess, log: Logger): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGINT');
  const timer = setTimeout(() => {
    log.warn('The Firebase Auth emulator did not stop in time; killing it');
    child.kill('SIGKILL');
  }, 15_000);
  await exited;
  clearTimeout(timer);
}
