import { and, count, eq, inArray, lte, sql, type SQL } from 'drizzle-orm';
import { appUserCounts, appUsers, applications } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';

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
 * The users of one of the owner's applications, and the active among them (neither
 * deactivated, paused nor expired). The enabled users come from the running totals; the
 * expired among them are counted from the (application_id, is_active, is_paused,
 * expires_at) index, which holds them in one range: only they are read.
 */
export async function countActiveAppUsers(
  ctx: OwnerContext,
  input: { applicationId: number; now: Date },
): Promise<{ total: number; active: number }> {
  const [[totals], [expired]] = await Promise.all([
    ctx.db
      .select({
        users: sql<number>`coalesce(sum(${appUserCounts.userCount}), 0)::float8`,
        enabled: sql<number>`coalesce(sum(${appUserCounts.enabledCount}), 0)::float8`,
      })
      .from(appUserCounts)
      .where(inArray(appUserCounts.applicationId, ownedApplicationIds(ctx, input.applicationId))),
    ctx.db
      .select({ value: count() })
      .from(appUsers)
      .where(
        and(
          inArray(appUsers.applicationId, ownedApplicationIds(ctx, input.applicationId)),
          eq(appUsers.isActive, true),
          eq(appUsers.isPaused, false),
          lte(appUsers.expiresAt, input.now),
        ),
      ),
  ]);
  return {
    total: totals?.users ?? 0,
    active: (totals?.enabled ?? 0) - (expired?.value ?? 0),
  };
}

function ownedApplicationIds(ctx: OwnerContext, applicationId: number | undefined) {
  const conditions: SQL[] = [eq(applications.ownerAccountId, ctx.account.id)];
  if (applicationId !== undefined) conditions.push(eq(applications.id, applicationId));
  return ctx.db
    .select({ id: applications.id })
    .from(applications)
    .where(and(...conditions));
}
