import { sql } from 'drizzle-orm';
import type { Database } from './client.ts';

/**
 * Runs `work` in a transaction whose statements PostgreSQL plans without parallel workers.
 *
 * Why: an owner's search of the activity log reads a few hundred rows through a dozen
 * partitions' indexes, but its estimated cost (a dozen bitmap scans) is enough for PostgreSQL
 * to hand it to two parallel workers. Starting them and gathering their rows cost 30 ms of a
 * 43 ms statement at ten million rows (the work itself was ~10 ms), and on a machine that also
 * serves sign-ins, workers wait for cores. The setting lasts until the transaction ends.
 */
export function withoutParallelWorkers<T>(
  db: Database,
  work: (tx: Database) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local max_parallel_workers_per_gather = 0`);
    return work(tx);
  });
}
