import { and, eq, inArray, lte, sql, type AnyColumn } from 'drizzle-orm';
import { appUserCounts, appUsers } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { ownedApplicationIds } from '../../ownership/load-owned-application.ts';

/**
 * How many end users the owner has in all (no `applicationId`) or in one of their
 * applications, from the running totals the triggers keep (schema/app-user-counts.ts): the
 * sum of a few shards, however many users there are.
 */
export async function countAppUsers(
  ctx: OwnerContext,
  input: { applicationId?: number } = {},
): Promise<number> {
  const [totals] = await ctx.db
    .select({ users: sql<number>`coalesce(sum(${appUserCounts.userCount}), 0)::float8` })
    .from(appUserCounts)
    .where(inArray(appUserCounts.applicationId, ownedApplicationIds(ctx, input.applicationId)));
  return totals?.users ?? 0;
}

/**
 * The users of an application and the active among them (neither deactivated, paused nor
 * expired), as scalar subqueries on `applicationId` (a column of the outer statement, already
 * scoped to the owner). The enabled users come from the running totals; the expired among
 * them are counted from the (application_id, is_active, is_paused, expires_at) index, which
 * holds them in one range: only they are read.
 */
export function appUserCountsOf(ctx: OwnerContext, applicationId: AnyColumn, now: Date) {
  const totals = (column: AnyColumn) =>
    sql<number>`(${ctx.db
      .select({ value: sql`coalesce(sum(${column}), 0)::float8` })
      .from(appUserCounts)
      .where(eq(appUserCounts.applicationId, applicationId))})`.mapWith(Number);
  const expiredEnabled = ctx.db
    .select({ value: sql`count(*)::float8` })
    .from(appUsers)
    .where(
      and(
        eq(appUsers.applicationId, applicationId),
        eq(appUsers.isActive, true),
        eq(appUsers.isPaused, false),
        lte(appUsers.expiresAt, now),
      ),
    );
  return {
    users: totals(appUserCounts.userCount),
    activeUsers: sql<number>`(${totals(appUserCounts.enabledCount)} - (${expiredEnabled}))`.mapWith(
      Number,
    ),
  };
}
