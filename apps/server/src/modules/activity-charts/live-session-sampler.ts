import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseConnection } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { sampleLiveSessions } from './sample-live-sessions.ts';

export interface LiveSessionSampler {
  /** One sample now (null when another instance holds the lock or the sampler is stopped). */
  sampleNow(): Promise<number | null>;
  /** Stops the schedule and waits for a running sample. */
  stop(): Promise<void>;
}

/**
 * Samples the live sessions every `intervalMs` (a minute: an hour's peak is then its highest
 * of about 60 samples), on unref'd timers like the retention sweep. A failed sample is logged
 * and the next one runs on schedule.
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
  let isStopped = false;
  let running: Promise<number | null> | null = null;
  let timer: NodeJS.Timeout | null = null;

  const sampleNow = (): Promise<number | null> => {
    if (isStopped) return Promise.resolve(null);
    running ??= sampleLiveSessions({ ctx: { db: database.db, database, clock, log } }).finally(
      () => {
        running = null;
      },
    );
    return running;
  };

  const schedule = () => {
    if (isStopped) return;
    timer = setTimeout(() => {
      sampleNow()
        .catch((error: unknown) => log.error({ err: error }, 'live session sample failed'))
        .finally(schedule);
    }, intervalMs);
    timer.unref();
  };
  schedule();

  return {
    sampleNow,
    stop: async () => {
      isStopped = true;
      if (timer) clearTimeout(timer);
      await running?.catch(() => {});
    },
  };
}
