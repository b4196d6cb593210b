import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import type { ServedSide } from './app.ts';

/** Tells a worker its slot (0…workers-1, counted over every group). */
export const WORKER_SLOT_VARIABLE = 'LATCHKEY_WORKER_SLOT';
/** Tells a worker which side it serves (CLIENT_API_PORT's two groups). */
export const WORKER_SIDE_VARIABLE = 'LATCHKEY_WORKER_SIDE';

/** This process's slot when it is a cluster worker, else 0. */
export function workerSlot(): number {
  return cluster.isWorker ? Number(process.env[WORKER_SLOT_VARIABLE] ?? 0) : 0;
}

/** The side a cluster worker was started for; a lone process serves everything. */
export function workerSide(): ServedSide {
  const side = cluster.isWorker ? process.env[WORKER_SIDE_VARIABLE] : undefined;
  return side === 'client-api' || side === 'console' ? side : 'everything';
}

/** A group of identical workers: how many, and which side they serve. */
export interface WorkerGroup {
  side: ServedSide;
  workers: number;
}

/**
 * A worker that exits with this code found the configuration unusable (a ConfigError, such as
 * a SERVER_SECRET that is not the database's): its replacement would fail the same way, so
 * the server stops at once. 78 is EX_CONFIG of sysexits.h.
 */
export const CONFIG_ERROR_EXIT_CODE = 78;
/** A worker that dies sooner than this after its start counts towards a crash loop. */
const EARLY_EXIT_MS = 30_000;
/** This many early exits in a row stop the whole server instead of restarting forever. */
const MAX_EARLY_EXITS = 5;
const RESTART_DELAY_MS = 1_000;
/** Workers have this long to drain (their own shutdown forces an exit at 20 s). */
const STOP_TIMEOUT_MS = 25_000;

/**
 * The parent process of the workers on one machine (node:cluster): `WEB_CONCURRENCY` whole
 * instances sharing the listening port, or with CLIENT_API_PORT two groups, each sharing its
 * own port; all share the database and the throttle store. The parent serves nothing; it
 * replaces a worker that dies (in its group and slot), and on SIGINT or SIGTERM asks every
 * worker to drain and waits for them, then runs `onStopped`.
 */
export function runClusterPrimary(options: {
  groups: WorkerGroup[];
  log: Logger;
  onStopped: () => Promise<void>;
}): void {
  const { log } = options;
  const startedAt = new Map<Worker, number>();
  const slotOf = new Map<Worker, number>();
  const sideOfSlot: ServedSide[] = options.groups.flatMap((group) =>
    Array.from({ length: group.workers }, () => group.side),
  );
  let earlyExits = 0;
  let isStopping = false;

  // Each worker has a slot (0…N-1), kept by its replacement: per-worker resources such as
  // the metrics listener's port (METRICS_PORT + slot) stay where a scraper looks for them.
  const fork = (slot: number) => {
    const worker = cluster.fork({
      [WORKER_SLOT_VARIABLE]: String(slot),
      [WORKER_SIDE_VARIABLE]: sideOfSlot[slot],
    });
    startedAt.set(worker, Date.now());
    slotOf.set(worker, slot);
  };

  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker) ?? 0);
    const slot = slotOf.get(worker) ?? 0;
    startedAt.delete(worker);
    slotOf.delete(worker);
    if (isStopping) {
      if (startedAt.size === 0) void finish(0);
      return;
    }
    if (code === CONFIG_ERROR_EXIT_CODE) {
      log.fatal({ pid: worker.process.pid }, 'a worker found the configuration unusable: stopping');
      void stop(1);
      return;
    }
    earlyExits = lived < EARLY_EXIT_MS ? earlyExits + 1 : 0;
    log.error({ pid: worker.process.pid, code, signal }, 'worker exited; starting another');
    if (earlyExits >= MAX_EARLY_EXITS) {
      log.fatal(`${earlyExits} workers in a row died within seconds of starting: giving up`);
      void stop(1);
      return;
    }
    setTimeout(() => {
      if (!isStopping) fork(slot);
    }, RESTART_DELAY_MS).unref();
  });

  let exitCode = 0;
  const finish = async (code: number) => {
    await options.onStopped();
    process.exit(Math.max(code, exitCode));
  };
  const stop = async (code: number) => {
    if (isStopping) return;
    isStopping = true;
    exitCode = code;
    log.info({ workers: startedAt.size }, 'stopping workers');
    if (startedAt.size === 0) return finish(code);
    for (const worker of startedAt.keys()) worker.process.kill('SIGTERM');
    setTimeout(() => {
      log.error('workers did not stop in time');
      for (const worker of startedAt.keys()) worker.process.kill('SIGKILL');
      void finish(1);
    }, STOP_TIMEOUT_MS).unref();
  };
  // A terminal's Ctrl-C reaches the workers too (same process group); they stop themselves
  // and the parent only waits for them.
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));

  log.info({ groups: options.groups }, 'starting workers');
  for (let slot = 0; slot < sideOfSlot.length; slot += 1) fork(slot);
}
