// CPU time of processes and threads, read from Linux's /proc: what a benchmark charges a
// request, apart from how many requests a busy machine let through. Elsewhere `canReadCpu` is
// false and the callers leave their CPU figures out.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

export const canReadCpu = existsSync('/proc/self/stat');

/** A command's output, or '' when it fails or is missing (getconf, pgrep). */
export function execFileSyncSafe(command, args) {
  try {
    return execFileSync(command, args, { encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
}

const TICK_US = 1e6 / Number(execFileSyncSafe('getconf', ['CLK_TCK']) || 100);

/** User and kernel CPU time (µs) of a process, or of a thread given its task's stat path. */
export function processTimesUs(pid, statPath = `/proc/${pid}/stat`) {
  try {
    const fields = readFileSync(statPath, 'utf8').split(') ')[1].split(' ');
    return { user: Number(fields[11]) * TICK_US, kernel: Number(fields[12]) * TICK_US };
  } catch {
    return { user: 0, kernel: 0 }; // a process that ended meanwhile
  }
}

/** User plus kernel CPU time (µs). */
export function processCpuUs(pid, statPath) {
  const { user, kernel } = processTimesUs(pid, statPath);
  return user + kernel;
}
