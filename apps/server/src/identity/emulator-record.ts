import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** What a server writes beside the emulator's state when it starts one. */
export interface EmulatorRecord {
  pid: number;
  processGroup: number;
  port: number;
  stateDir: string;
  /** The server that started it: while that server runs, the emulator is not stale. */
  serverPid: number;
}

const recordPath = (stateDir: string) => join(stateDir, 'emulator.json');

export function writeEmulatorRecord(
  stateDir: string,
  record: Omit<EmulatorRecord, 'serverPid'>,
): void {
  writeFileSync(recordPath(stateDir), JSON.stringify({ ...record, serverPid: process.pid }));
}

export function readEmulatorRecord(stateDir: string): EmulatorRecord | null {
  try {
    const record = JSON.parse(readFileSync(recordPath(stateDir), 'utf8')) as EmulatorRecord;
    return Number.isInteger(record.pid) && Number.isInteger(record.processGroup) ? record : null;
  } catch {
    return null;
  }
}

/** Removes the record once its emulator has exited (unless a newer start replaced it). */
export function forgetEmulatorRecord(stateDir: string, pid: number): void {
  if (readEmulatorRecord(stateDir)?.pid === pid) rmSync(recordPath(stateDir), { force: true });
}

/**
 * Stops the emulator an earlier run started for this state directory and left running (its
 * server was killed, or this process lost the handle), and returns its record; null when
 * there is none. The process must still prove it is that emulator (/proc/<pid>/cmdline names
 * firebase-tools exporting to this directory), so a recycled pid is never signalled. An
 * emulator whose server still runs is left alone: taking it away would break that server.
 */
export async function stopStaleEmulator(options: {
  stateDir: string;
  firebaseCli: string;
  exportDir: string;
}): Promise<EmulatorRecord | null> {
  const record = readEmulatorRecord(options.stateDir);
  if (!record || record.stateDir !== options.stateDir) return null;
  const process_ = readProcess(record.pid);
  if (!process_ || !isEmulatorCommand(process_.commandLine, options)) return null;
  const isServerAlive =
    record.serverPid !== process.pid &&
    process_.parentPid === record.serverPid &&
    readProcess(record.serverPid) !== null;
  if (isServerAlive) {
    throw new Error(
      `The Firebase Auth emulator for ${options.stateDir} (pid ${record.pid}, port ${record.port}) ` +
        `belongs to a server that is still running (pid ${record.serverPid}); stop that server first.`,
    );
  }
  // SIGINT first: firebase-tools then exports the accounts it holds, which a fresh
  // emulator imports, so nobody signed in since the last export gets a new uid.
  if (!(await signalGroupAndWait(record, 'SIGINT', 15_000))) {
    await signalGroupAndWait(record, 'SIGKILL', 5_000);
  }
  forgetEmulatorRecord(options.stateDir, record.pid);
  return record;
}

/** True when something accepts connections at host:port. */
export function isPortAnswering(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const finish = (isAnswering: boolean) => {
      socket.destroy();
      resolve(isAnswering);
    };
    socket.setTimeout(1000, () => finish(false));
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
  });
}

function isEmulatorCommand(
  commandLine: string[],
  options: { firebaseCli: string; exportDir: string },
): boolean {
  return (
    commandLine.includes(options.firebaseCli) &&
    commandLine.includes('emulators:start') &&
    commandLine.includes(options.exportDir)
  );
}

/** A running (not zombie) process's command line and parent, from /proc; null otherwise. */
function readProcess(pid: number): { commandLine: string[]; parentPid: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name in parentheses may itself contain spaces and parentheses.
    const [state, parentPid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (state === 'Z' || state === 'X') return null;
    const commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return { commandLine, parentPid: Number(parentPid) };
  } catch {
    return null;
  }
}

async function signalGroupAndWait(
  record: EmulatorRecord,
  signal: NodeJS.Signals,
  timeoutMs: number,
): Promise<boolean> {
  try {
    process.kill(-record.processGroup, signal);
  } catch {
    return readProcess(record.pid) === null;
  }
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (readProcess(record.pid) === null) return true;
    await sleep(100);
  }
  return false;
}

/** True while the process runs (a zombie, dead but not yet reaped, does not count). */
export function isProcessRunning(pid: number): boolean {
  return readProcess(pid) !== null;
}
