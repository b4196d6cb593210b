import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import {
  forgetEmulatorRecord,
  isPortAnswering,
  stopStaleEmulator,
  writeEmulatorRecord,
} from './emulator-record.ts';
import { serverAssetPaths } from '../server-asset-paths.ts';

/** An emulator this process started (it never adopts one), and so must stop. */
export interface RunningAuthEmulator {
  pid: number;
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
 * Starts the Firebase Auth emulator from firebase-tools for `stateDir`. Its accounts are
 * imported from and exported to `stateDir`, so a Google account keeps its uid across restarts.
 *
 * It never adopts an emulator it finds running: one that a killed earlier run left for this
 * `stateDir` (recorded there) is stopped and replaced; anything else on the port is refused,
 * because an emulator started for other data would hand out other uids for the same people.
 */
export async function startAuthEmulator(options: {
  host: string;
  projectId: string;
  stateDir: string;
  log?: Logger;
  timeoutMs?: number;
}): Promise<RunningAuthEmulator> {
  const log = options.log ?? consoleLogger;
  const stateDir = resolve(options.stateDir);
  const firebaseCli = resolveFirebaseCli();
  const [hostname = '127.0.0.1', portText = '9099'] = options.host.split(':');
  const port = Number(portText);
  const workDir = join(stateDir, 'workdir');
  const exportDir = join(stateDir, 'export');

  const stopped = await stopStaleEmulator({ stateDir, exportDir, firebaseCli });
  if (stopped) {
    log.warn(
      `Stopped the Firebase Auth emulator (pid ${stopped.pid}, port ${stopped.port}) that an earlier run left behind`,
    );
  }
  if (await isPortAnswering(hostname, port)) {
    throw new Error(
      `Port ${port} (FIREBASE_AUTH_EMULATOR_HOST ${options.host}) is already in use by a process ` +
        `this server did not start for ${stateDir}. Stop that process, or set ` +
        'FIREBASE_AUTH_EMULATOR_HOST to a free host:port (the next two ports must be free too).',
    );
  }
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

  const args = [
    '--require',
    serverAssetPaths.exitWithParentPreload,
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
  // Should this process exit without a graceful stop, the emulator must not outlive it; a
  // kill -9 skips this, which is what the record and the exit-with-parent preload are for.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  if (child.pid !== undefined) {
    // detached: the child leads a process group of its own, whose id is its pid.
    writeEmulatorRecord(stateDir, { pid: child.pid, processGroup: child.pid, port, stateDir });
  }
  child.once('exit', () => {
    process.removeListener('exit', killOnExit);
    if (child.pid !== undefined) forgetEmulatorRecord(stateDir, child.pid);
  });
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
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`The Firebase Auth emulator did not start at ${options.host}:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  log.info(`Firebase Auth emulator ready at ${options.host}`);
  return { pid: child.pid!, stop: () => stopChild(child, log) };
}

/**
 * Resolved only here, when the emulator is about to start: firebase-tools is a
 * devDependency, absent from a production install (`npm ci --omit=dev`), which never
 * starts the emulator because config.ts insists on a real project there.
 */
function resolveFirebaseCli(): string {
  try {
    return createRequire(import.meta.url).resolve('firebase-tools/lib/bin/firebase.js');
  } catch {
    throw new Error(
      'The Firebase Auth emulator needs firebase-tools, a development dependency that is not ' +
        'installed here (npm ci --omit=dev?). Configure a real Firebase project ' +
        '(FIREBASE_PROJECT_ID, FIREBASE_API_KEY, FIREBASE_AUTH_DOMAIN) or install the ' +
        'development dependencies.',
    );
  }
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
