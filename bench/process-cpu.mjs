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

/**
 * A process's CPU time (µs) with that of the children it has reaped: summed over PostgreSQL's
 * processes, a backend that ended between two readings still counts (in the postmaster's).
 */
export function processAndReapedCpuUs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime, stime, cutime, cstime
    return (
      (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * TICK_US
    );
  } catch {
    return 0; // ended meanwhile: its time is in its parent's reaped children's
  }
}

/** The pids of this machine's PostgreSQL processes. */
export function postgresPids() {
  return execFileSyncSafe('pgrep', ['-x', 'postgres']).split(/\s+/).filter(Boolean);
}

/** Every PostgreSQL process's CPU (µs) so far, the backends that ended included. */
export function postgresCpuUs() {
  return postgresPids().reduce((sum, pid) => sum + processAndReapedCpuUs(pid), 0);
}

/**
 * Sets the CPU affinity of every PostgreSQL process (and its threads) to `cores` (Linux
 * `taskset`; root or PostgreSQL's user). New backends inherit the postmaster's.
 */
export function pinPostgres(cores) {
  for (const pid of postgresPids()) {
    execFileSync('taskset', ['-a', '-cp', cores, pid], { stdio: 'ignore' });
  }
}
