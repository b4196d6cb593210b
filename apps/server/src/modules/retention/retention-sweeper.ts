import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseConnection } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { startPeriodicTask } from '../../lib/periodic-task.ts';
import { sweepExpiredRows, type RetentionPolicy, type SweepResult } from './sweep-expired-rows.ts';

export interface RetentionSweeper {
  /** One sweep now (null when another sweep holds the lock or the sweeper is stopped). */
  sweepNow(): Promise<SweepResult | null>;
  /** Stops the schedule and waits for a running sweep to stop at its next batch. */
  stop(): Promise<void>;
}

/**
 * Runs the retention sweep shortly after start-up and then every `intervalMs`, on the shared
 * periodic loop (unref'd timers; a failed sweep is logged and retried at the next interval).
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
  const task = startPeriodicTask({
    name: 'retention sweep',
    log,
    intervalMs,
    startDelayMs,
    run: (isStopped) =>
      sweepExpiredRows({
        ctx: { db: database.db, database, clock, log },
        input: { ...policy, shouldStop: isStopped },
      }),
  });
  return { sweepNow: task.runNow, stop: task.stop };
}
