import type { FastifyBaseLogger } from 'fastify';

export interface PeriodicTask<Result> {
  /** One run now, or the one in progress (null once stopped). */
  runNow(): Promise<Result | null>;
  /** Stops the schedule and waits for a run in progress. */
  stop(): Promise<void>;
}

/**
 * Runs `run` after `startDelayMs`, then `intervalMs` after each run ends, on unref'd timers:
 * a pending run never keeps the process alive. Runs never overlap (`runNow` during a run joins
 * it); a run that fails is logged and the next one runs on schedule. Background upkeep shared
 * by several instances takes its own lock or claim inside `run`.
 */
export function startPeriodicTask<Result>(options: {
  name: string;
  log: FastifyBaseLogger;
  intervalMs: number;
  startDelayMs: number;
  run: (isStopped: () => boolean) => Promise<Result>;
}): PeriodicTask<Result> {
  let isStopped = false;
  let running: Promise<Result | null> | null = null;
  let timer: NodeJS.Timeout | null = null;

  const runNow = (): Promise<Result | null> => {
    if (isStopped) return Promise.resolve(null);
    running ??= options
      .run(() => isStopped)
      .finally(() => {
        running = null;
      });
    return running;
  };

  const schedule = (delayMs: number) => {
    if (isStopped) return;
    timer = setTimeout(() => {
      runNow()
        .catch((error: unknown) => options.log.error({ err: error }, `${options.name} failed`))
        .finally(() => schedule(options.intervalMs));
    }, delayMs);
    timer.unref();
  };
  schedule(options.startDelayMs);

  return {
    runNow,
    stop: async () => {
      isStopped = true;
      if (timer) clearTimeout(timer);
      await running?.catch(() => {});
    },
  };
}
