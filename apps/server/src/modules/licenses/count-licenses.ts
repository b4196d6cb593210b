import { eq, inArray, sql, type AnyColumn } from 'drizzle-orm';
import { licenseKeyCounts } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { ownedApplicationIds } from '../../ownership/load-owned-application.ts';

export interface LicenseCounts {
  unusedLicenses: number;
  usedLicenses: number;
  bannedLicenses: number;
}

const sums = {
  unusedLicenses: sql<number>`coalesce(sum(${licenseKeyCounts.unusedCount}), 0)::float8`.mapWith(
    Number,
  ),
  usedLicenses: sql<number>`coalesce(sum(${licenseKeyCounts.usedCount}), 0)::float8`.mapWith(
    Number,
  ),
  bannedLicenses: sql<number>`coalesce(sum(${licenseKeyCounts.bannedCount}), 0)::float8`.mapWith(
    Number,
  ),
};

/**
 * Unused and used keys of all the owner's applications (no `applicationId`) or of one, from
 * the running totals the triggers keep (schema/license-key-counts.ts): a few shards, however
 * many keys. "Unused" includes keys past their redeem-by date, which no trigger can see pass.
 */
export async function countLicenses(
  ctx: OwnerContext,
  input: { applicationId?: number } = {},
): Promise<LicenseCounts> {
  const [totals] = await ctx.db
    .select(sums)
    .from(licenseKeyCounts)
    .where(inArray(licenseKeyCounts.applicationId, ownedApplicationIds(ctx, input.applicationId)));
  return totals ?? { unusedLicenses: 0, usedLicenses: 0, bannedLicenses: 0 };
}

/** The same as scalar subqueries on `applicationId`, a column of an owner-scoped statement. */
export function licenseCountsOf(ctx: OwnerContext, applicationId: AnyColumn) {
  const total = (column: AnyColumn) =>
    sql<number>`(${ctx.db
      .select({ value: sql`coalesce(sum(${column}), 0)::float8` })
      .from(licenseKeyCounts)
      .where(eq(licenseKeyCounts.applicationId, applicationId))})`.mapWith(Number);
  return {
    unusedLicenses: total(licenseKeyCounts.unusedCount),
    usedLicenses: total(licenseKeyCounts.usedCount),
  };
}
