import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseConnection } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { sweepExpiredRows, type RetentionPolicy, type SweepResult } from './sweep-expired-rows.ts';

export interface RetentionSweeper {
  /** One sweep now (null when another sweep holds the lock or the sweeper is stopped). */
  sweepNow(): Promise<SweepResult | null>;
  /** Stops the schedule and waits for a running sweep to stop at its next batch. */
  stop(): Promise<void>;
}

/**
 * Runs the retention sweep shortly after start-up and then every `intervalMs`. Its timers
 * are unref'd: a pending sweep never keeps the process alive. A sweep that fails is logged
 * and retried at the next interval.
 */
export function startRetentionSweeper({
  database,
  clock,
  log,
  policy,
  intervalMs,
  startDelayMs,
}: {
  database: DatabaseConnection;
  clock: Clock;
  log: FastifyBaseLogger;
  policy: RetentionPolicy;
  intervalMs: number;
  startDelayMs: number;
}): RetentionSweeper {
  let isStopped = false;
  let running: Promise<SweepResult | null> | null = null;
  let timer: NodeJS.Timeout | null = null;

  const sweepNow = (): Promise<SweepResult | null> => {
    if (isStopped) return Promise.resolve(null);
    running ??= sweepExpiredRows({
      ctx: { db: database.db, database, clock, log },
      input: { ...policy, shouldStop: () => isStopped },
    }).finally(() => {
      running = null;
    });
    return running;
  };

  const schedule = (delayMs: number) => {
    if (isStopped) return;
    timer = setTimeout(() => {
      sweepNow()
        .catch((error: unknown) => log.error({ err: error }, 'retention sweep failed'))
        .finally(() => schedule(intervalMs));
    }, delayMs);
    timer.unref();
  };
  schedule(startDelayMs);

  return {
    sweepNow,
    stop: async () => {
      isStopped = true;
      if (timer) clearTimeout(timer);
      await running?.catch(() => {});
    },
  };
}
