import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { rowsOf } from '../../db/rows-of.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes an application's search terms (activity_log_terms) whose every log row is gone, once
 * the log holds no row of it older than `cutoff`; answers how many. A term's day is the UTC day
 * of its newest row, so a term whose day ended by the cutoff has no row left: a range of the
 * terms' (application_id, last_seen_day) index, with no look at the log. A term of the cutoff's
 * own day may still have rows after the cutoff: the log is asked (its btrees on the application
 * and the term), for that day's terms only.
 */
export async function deleteStaleActivityLogTerms(
  db: Database,
  applicationId: number,
  cutoff: Date,
): Promise<number> {
  const dayBefore = new Date(cutoff.getTime() - DAY_MS);
  const deleted = rowsOf<{ value: string }>(
    await db.execute(sql`
      delete from activity_log_terms t
      where t.application_id = ${applicationId}
        and t.last_seen_day < ${cutoff.toISOString()}::timestamptz
        and (
          t.last_seen_day <= ${dayBefore.toISOString()}::timestamptz
          or (t.field = 'username' and not exists (
                select 1 from activity_logs l
                where l.application_id = t.application_id and l.username = t.value))
          or (t.field = 'ip_address' and not exists (
                select 1 from activity_logs l
                where l.application_id = t.application_id and l.ip_address = t.value))
        )
      returning t.value`),
  );
  return deleted.length;
}
