import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Database } from '../src/db/client.ts';
import { rowsOf } from '../src/db/rows-of.ts';
import { foldCounterDeltas } from '../src/modules/activity/index.ts';

/** Every activity counter's rows that count something, in a stable order. */
async function activityCounterRows(db: Database): Promise<Record<string, unknown[]>> {
  const read = async (query: ReturnType<typeof sql>) => rowsOf<unknown>(await db.execute(query));
  return {
    totals: await read(sql`
      select application_id, login_attempts, login_successes from activity_counts
      where login_attempts <> 0 or login_successes <> 0 order by 1`),
    events: await read(sql`
      select application_id, event, row_count, success_count from activity_event_counts
      where row_count <> 0 or success_count <> 0 order by 1, 2`),
    addresses: await read(sql`
      select application_id, ip_address, row_count from activity_address_counts
      where row_count <> 0 order by 1, 2`),
    eventAddresses: await read(sql`
      select application_id, event, ip_address, row_count from activity_event_address_counts
      where row_count <> 0 order by 1, 2, 3`),
    hours: await read(sql`
      select application_id, hour, event, row_count from activity_hourly_counts
      where row_count <> 0 order by 1, 2, 3`),
    days: await read(sql`
      select application_id, day, event, ip_address, row_count, success_count, login_attempts,
             login_successes from activity_day_counts
      where row_count <> 0 or success_count <> 0 or login_attempts <> 0 or login_successes <> 0
      order by 1, 2, 3, 4`),
  };
}

/**
 * Folds the queued deltas, then checks every activity counter against the rows' truth: the
 * counters `rebuild_activity_counters()` (the operator's repair) recounts from the log. In one
 * transaction that holds off the log's writers, so a row written meanwhile (an instance still
 * serving) cannot come between the two readings.
 */
export async function expectActivityCountersToMatchRows(db: Database): Promise<void> {
  const { kept, truth } = await db.transaction(async (tx) => {
    await tx.execute(sql`lock table activity_logs in share row exclusive mode`);
    await foldCounterDeltas(tx);
    const counted = await activityCounterRows(tx);
    await tx.execute(sql`select rebuild_activity_counters()`);
    return { kept: counted, truth: await activityCounterRows(tx) };
  });
  expect(kept).toEqual(truth);
}
