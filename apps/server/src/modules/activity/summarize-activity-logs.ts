import { count, isNotNull, sql } from 'drizzle-orm';
import {
  SEARCH_COUNT_LIMIT,
  type ActivityLogFilter,
  type ActivityLogStats,
} from '@latchkey/contracts';
import { activityLogs } from '../../db/schema/index.ts';
import { withoutParallelWorkers } from '../../db/without-parallel-workers.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { loadOwnedApplication } from '../../ownership/load-owned-application.ts';
import { searchMatchesWhere } from './activity-log-filter-where.ts';
import { readActivityTotals } from './activity-totals.ts';

/** A search matching more than SEARCH_COUNT_LIMIT logs: only that floor is given. */
const CAPPED: ActivityLogStats = {
  totalEvents: SEARCH_COUNT_LIMIT,
  successful: null,
  failed: null,
  uniqueIps: null,
  isCapped: true,
};

/**
 * The four stat cards of the activity log over every log the filters match,
 * not one page. Without a search they come from the running totals. A search counts the rows
 * it matches (a bitmap of the search's indexes) when they are at most SEARCH_COUNT_LIMIT;
 * past that, only the total is given, as that floor.
 */
export async function summarizeActivityLogs({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: ActivityLogFilter;
}): Promise<ActivityLogStats> {
  if (input.applicationId !== undefined) {
    await loadOwnedApplication({ ctx, input: { applicationId: input.applicationId } });
  }
  if (!input.search) return { ...(await readActivityTotals(ctx, input)), isCapped: false };
  const where = await searchMatchesWhere(ctx, { ...input, search: input.search });
  if (!where) return CAPPED;
  // One statement reads the search once (a CTE named twice is materialized): up to one more
  // than the limit of its matches, then their counts, the distinct addresses over a hashed
  // DISTINCT rather than count(DISTINCT ...), which sorts. A count, then the totals, read the
  // search three times: ~100 ms each at ten million rows. Without parallel workers, as a
  // searched page of the log.
  const matches = ctx.db.$with('matches').as(
    ctx.db
      .select({ success: activityLogs.success, ipAddress: activityLogs.ipAddress })
      .from(activityLogs)
      .where(where)
      .limit(SEARCH_COUNT_LIMIT + 1),
  );
  const addresses = ctx.db
    .selectDistinct({ ipAddress: matches.ipAddress })
    .from(matches)
    .where(isNotNull(matches.ipAddress));
  const [totals] = await withoutParallelWorkers(ctx.db, (tx) =>
    tx
      .with(matches)
      .select({
        totalEvents: count(),
        successful: sql<number>`count(*) filter (where ${matches.success})`.mapWith(Number),
        uniqueIps: sql<number>`(select count(*) from (${addresses}) as addresses)`.mapWith(Number),
      })
      .from(matches),
  );
  if (totals!.totalEvents > SEARCH_COUNT_LIMIT) return CAPPED;
  const { totalEvents, successful, uniqueIps } = totals!;
  return { totalEvents, successful, failed: totalEvents - successful, uniqueIps, isCapped: false };
}
