import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { promisify } from 'node:util';
import { setPriority } from 'node:os';

/**
 * Lowers this process's CPU priority to `niceness` (the console's workers yield to
 * the client API's). On Linux a niceness belongs to each thread, and V8's and libuv's threads
 * already run when this is called: every thread in /proc/self/task is lowered, and threads
 * started later inherit it from the main thread. Raising a niceness needs no privilege.
 * Returns the threads lowered (0 where /proc is missing: then the process alone, via pid 0).
 */
export function lowerOwnCpuPriority(niceness: number): number {
  let threads: string[] = [];
  try {
    threads = readdirSync('/proc/self/task');
  } catch {
    setPriority(0, niceness);
    return 0;
  }
  let lowered = 0;
  for (const thread of threads) {
    try {
      setPriority(Number(thread), niceness);
      lowered += 1;
    } catch {
      // A thread that ended meanwhile.
    }
  }
  return lowered;
}

const run = promisify(execFile);

/**
 * Keeps a process to a set of CPUs (a taskset list, `1` or `2-3`): with `allThreads`, every
 * thread it has now (later ones inherit it from the thread that starts them). Node has no
 * sched_setaffinity of its own; util-linux's taskset is on every Linux this runs on.
 */
export async function keepToCpus(
  pid: number,
  cpus: string,
  { allThreads }: { allThreads: boolean },
): Promise<void> {
  await run('taskset', [...(allThreads ? ['-a'] : []), '-p', '-c', cpus, String(pid)]);
}
