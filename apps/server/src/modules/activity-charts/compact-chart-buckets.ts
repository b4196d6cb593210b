import { sql } from 'drizzle-orm';
import type { Context } from '../../http/request-context.ts';

/** The longest activity chart (30 days) and a day's margin: older chart history goes. */
export const CHART_HISTORY_MS = 31 * 24 * 3_600_000;

/**
 * Hours this old take no more inserts (a row's hour is its statement's time, and no
 * transaction stays open that long), so their shards can be folded into one row each.
 */
export const COMPACTABLE_AFTER_MS = 2 * 3_600_000;

/**
 * Folds the shards of each closed hour's bucket into one row (the lowest shard keeps the
 * sum; a sum of zero keeps nothing). The triggers split a busy hour over up to 16 shards so
 * that concurrent logins do not queue on one row; once the hour is over that only multiplies
 * what a chart reads: a 30-day chart read 60,000 rows instead of 3,600 at bench:scale's size.
 * Each table in one statement, so the sums never change; run by the retention
 * sweep, one instance at a time, which is also the only writer of hours this old.
 */
export async function compactChartBuckets({
  ctx,
}: {
  ctx: Pick<Context, 'db' | 'clock'>;
}): Promise<number> {
  const { db } = ctx;
  const now = ctx.clock.now();
  // Only what a chart can still show: older hours are left to the retention sweep, and this
  // scan stays bounded however long the log is kept.
  const since = new Date(now.getTime() - CHART_HISTORY_MS).toISOString();
  const before = new Date(
    Math.floor((now.getTime() - COMPACTABLE_AFTER_MS) / 3_600_000) * 3_600_000,
  );
  const activity = await db.execute(sql`
    with groups as (
      select application_id, hour, event, min(shard) as keep, sum(row_count) as total
      from activity_hourly_counts
      where hour >= ${since}::timestamptz and hour < ${before.toISOString()}::timestamptz
      group by application_id, hour, event
      having count(*) > 1 or sum(row_count) = 0
    ), kept as (
      update activity_hourly_counts c set row_count = g.total
      from groups g
      where c.application_id = g.application_id and c.hour = g.hour and c.event = g.event
        and c.shard = g.keep and g.total <> 0
      returning 1
    ), removed as (
      delete from activity_hourly_counts c
      using groups g
      where c.application_id = g.application_id and c.hour = g.hour and c.event = g.event
        and (c.shard <> g.keep or g.total = 0)
      returning 1
    )
    select (select count(*) from removed)::int as removed, (select count(*) from kept)::int as kept`);
  const sessions = await db.execute(sql`
    with groups as (
      select application_id, hour, min(shard) as keep, sum(session_count) as total
      from session_start_hourly_counts
      where hour >= ${since}::timestamptz and hour < ${before.toISOString()}::timestamptz
      group by application_id, hour
      having count(*) > 1
    ), kept as (
      update session_start_hourly_counts c set session_count = g.total
      from groups g
      where c.application_id = g.application_id and c.hour = g.hour and c.shard = g.keep
      returning 1
    ), removed as (
      delete from session_start_hourly_counts c
      using groups g
      where c.application_id = g.application_id and c.hour = g.hour and c.shard <> g.keep
      returning 1
    )
    select (select count(*) from removed)::int as removed, (select count(*) from kept)::int as kept`);
  return removedCount(activity) + removedCount(sessions);
}

function removedCount(result: unknown): number {
  const rows = (result as { rows?: Array<{ removed: number }> }).rows ?? [];
  return Number(rows[0]?.removed ?? 0);
}
