import { and, count, eq, inArray, sql } from 'drizzle-orm';
import type { ActivityLogFilter, ActivityLogStats } from '@latchkey/contracts';
import {
  activityAddressCounts,
  activityEventAddressCounts,
  activityEventCounts,
} from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { foldCounterDeltas } from './fold-counter-deltas.ts';
import { ownedApplicationIds } from '../../ownership/load-owned-application.ts';

type TotalsFilter = Pick<ActivityLogFilter, 'applicationId' | 'event'>;

/**
 * The rows, successful rows and distinct addresses of the owner's activity log (or of one
 * application, or of one event), from the running totals (schema/activity-totals.ts, folded
 * first so they count every row written so far): a few hundred rows read, however long the
 * log. Only for a filter without a search.
 */
export async function readActivityTotals(
  ctx: OwnerContext,
  filter: TotalsFilter,
): Promise<Omit<ActivityLogStats, 'isCapped'>> {
  await foldCounterDeltas(ctx.db);
  const [[rows], [addresses]] = await Promise.all([
    ctx.db
      .select({
        total: sql<number>`coalesce(sum(${activityEventCounts.rowCount}), 0)::float8`,
        successful: sql<number>`coalesce(sum(${activityEventCounts.successCount}), 0)::float8`,
      })
      .from(activityEventCounts)
      .where(eventCountsWhere(ctx, filter)),
    ctx.db.select({ value: count() }).from(distinctAddresses(ctx, filter)),
  ]);
  const totalEvents = rows?.total ?? 0;
  const successful = rows?.successful ?? 0;
  return {
    totalEvents,
    successful,
    failed: totalEvents - successful,
    uniqueIps: addresses?.value ?? 0,
  };
}

/** How many rows the filter matches, from the running totals (no search). */
export async function countActivityRows(ctx: OwnerContext, filter: TotalsFilter): Promise<number> {
  await foldCounterDeltas(ctx.db);
  const [rows] = await ctx.db
    .select({ total: sql<number>`coalesce(sum(${activityEventCounts.rowCount}), 0)::float8` })
    .from(activityEventCounts)
    .where(eventCountsWhere(ctx, filter));
  return rows?.total ?? 0;
}

function eventCountsWhere(ctx: OwnerContext, filter: TotalsFilter) {
  return and(
    inArray(activityEventCounts.applicationId, ownedApplicationIds(ctx, filter.applicationId)),
    filter.event ? eq(activityEventCounts.event, filter.event) : undefined,
  );
}

/** The addresses named by at least one row (the fold deletes a count it takes to zero). */
function distinctAddresses(ctx: OwnerContext, filter: TotalsFilter) {
  if (filter.event) {
    return ctx.db
      .selectDistinct({ ipAddress: activityEventAddressCounts.ipAddress })
      .from(activityEventAddressCounts)
      .where(
        and(
          inArray(
            activityEventAddressCounts.applicationId,
            ownedApplicationIds(ctx, filter.applicationId),
          ),
          eq(activityEventAddressCounts.event, filter.event),
        ),
      )
      .as('addresses');
  }
  return ctx.db
    .selectDistinct({ ipAddress: activityAddressCounts.ipAddress })
    .from(activityAddressCounts)
    .where(
      inArray(activityAddressCounts.applicationId, ownedApplicationIds(ctx, filter.applicationId)),
    )
    .as('addresses');
}
