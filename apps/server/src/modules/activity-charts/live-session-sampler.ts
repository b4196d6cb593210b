import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseConnection } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { startPeriodicTask } from '../../lib/periodic-task.ts';
import { sampleLiveSessions } from './sample-live-sessions.ts';

export interface LiveSessionSampler {
  /** One sample now (null when another instance holds the lock or the sampler is stopped). */
  sampleNow(): Promise<number | null>;
  /** Stops the schedule and waits for a running sample. */
  stop(): Promise<void>;
}

/**
 * Samples the live sessions every `intervalMs` (a minute: an hour's peak is then its highest
 * of about 60 samples), on the shared periodic loop like the retention sweep. A failed sample
 * is logged and the next one runs on schedule.
 */
export function startLiveSessionSampler({
  database,
  clock,
  log,
  intervalMs,
}: {
  database: DatabaseConnection;
  clock: Clock;
  log: FastifyBaseLogger;
  intervalMs: number;
}): LiveSessionSampler {
  const task = startPeriodicTask({
    name: 'live session sample',
    log,
    intervalMs,
    startDelayMs: intervalMs,
    run: () => sampleLiveSessions({ ctx: { db: database.db, database, clock, log } }),
  });
  return { sampleNow: task.runNow, stop: task.stop };
}
