import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseConnection } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { startPeriodicTask, type PeriodicTask } from '../../lib/periodic-task.ts';
import {
  backfillLicenseKeyPrefixes,
  type LicenseKeyPrefixBackfillResult,
} from './backfill-license-key-prefixes.ts';

/** Keys unsealed per statement, and the pause between statements. */
const BATCH_SIZE = 1000;
const PAUSE_MS = 50;
/**
 * Once no key is pending a run is one probe of an empty index, so a run now and then costs
 * nothing; it also takes over if the instance that was backfilling stopped halfway.
 */
const INTERVAL_MS = 60 * 60 * 1000;

/**
 * Runs the prefix backfill of the keys from before prefixes were kept, off the start-up path
 * (after `startDelayMs`, on unref'd timers), on the shared periodic loop. Until it is done those
 * keys are found by everything but their first characters.
 */
export function startLicenseKeyPrefixBackfill({
  database,
  clock,
  log,
  serverSecret,
  startDelayMs,
}: {
  database: DatabaseConnection;
  clock: Clock;
  log: FastifyBaseLogger;
  serverSecret: string;
  startDelayMs: number;
}): PeriodicTask<LicenseKeyPrefixBackfillResult | null> {
  return startPeriodicTask({
    name: 'licence key prefix backfill',
    log,
    intervalMs: INTERVAL_MS,
    startDelayMs,
    run: async (isStopped) => {
      const result = await backfillLicenseKeyPrefixes({
        ctx: { db: database.db, database, clock, log, serverSecret },
        input: { batchSize: BATCH_SIZE, pauseMs: PAUSE_MS, shouldStop: isStopped },
      });
      if (result && result.keysExamined > 0) {
        log.info(result, 'licence key prefixes backfilled');
      }
      return result;
    },
  });
}
