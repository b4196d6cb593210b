import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Database } from '../src/db/client.ts';
import { rowsOf } from '../src/db/rows-of.ts';
import { foldCounterDeltas } from '../src/modules/activity/index.ts';

interface TermRow {
  application_id: number;
  field: string;
  value: string;
  day: string;
}

/**
 * Folds the queued deltas (which carry the terms), then checks activity_log_terms against the
 * log's truth: one term for every username and address the log holds, per application, none
 * for anything it no longer holds, each dated the UTC day of its newest row. In one
 * transaction that holds off the log's writers.
 */
export async function expectActivityLogTermsToMatchRows(db: Database): Promise<void> {
  const { kept, truth } = await db.transaction(async (tx) => {
    await tx.execute(sql`lock table activity_logs in share row exclusive mode`);
    await foldCounterDeltas(tx);
    const kept = rowsOf<TermRow>(
      await tx.execute(sql`
        select application_id, field, value, to_char(last_seen_day at time zone 'UTC', 'YYYY-MM-DD') as day
        from activity_log_terms order by 1, 2, 3`),
    );
    const truth = rowsOf<TermRow>(
      await tx.execute(sql`
        select application_id, field, value, to_char(max(created_at) at time zone 'UTC', 'YYYY-MM-DD') as day
        from (
          select application_id, 'username' as field, username as value, created_at
          from activity_logs where username is not null
          union all
          select application_id, 'ip_address', ip_address, created_at
          from activity_logs where ip_address is not null
        ) terms
        group by 1, 2, 3 order by 1, 2, 3`),
    );
    return { kept, truth };
  });
  expect(kept).toEqual(truth);
}
