import { and, count, isNotNull, sql } from 'drizzle-orm';
import type { ActivityLogFilter, ActivityLogStats } from '@latchkey/contracts';
import { countCapped } from '../../db/count-capped.ts';
import { activityLogs } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { loadOwnedApplication } from '../../ownership/load-owned-application.ts';
import { activityLogFilterWhere } from './activity-log-filter-where.ts';
import { readActivityTotals } from './activity-totals.ts';

/**
 * The four stat cards of the activity log over every log the filters match,
 * not one page. Without a search they come from the running totals. A search counts the rows
 * it matches (a bitmap of the search's indexes; the distinct addresses over a hashed
 * DISTINCT rather than count(DISTINCT ...), which sorts every row) when they are at most
 * SEARCH_COUNT_LIMIT; past that, only the total is given, as that floor.
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
  const where = activityLogFilterWhere(ctx, input);
  const matched = await countCapped(ctx.db, activityLogs, where);
  if (matched.isCapped) {
    return {
      totalEvents: matched.count,
      successful: null,
      failed: null,
      uniqueIps: null,
      isCapped: true,
    };
  }
  const addresses = ctx.db
    .selectDistinct({ ipAddress: activityLogs.ipAddress })
    .from(activityLogs)
    .where(and(where, isNotNull(activityLogs.ipAddress)))
    .as('addresses');
  const [[totals], [ips]] = await Promise.all([
    ctx.db
      .select({
        totalEvents: count(),
        successful: sql<number>`count(*) filter (where ${activityLogs.success})`.mapWith(Number),
      })
      .from(activityLogs)
      .where(where),
    ctx.db.select({ value: count() }).from(addresses),
  ]);
  const totalEvents = totals?.totalEvents ?? 0;
  const successful = totals?.successful ?? 0;
  return {
    totalEvents,
    successful,
    failed: totalEvents - successful,
    uniqueIps: ips?.value ?? 0,
    isCapped: false,
  };
}
