import { and, desc, eq, inArray, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { LicenseFilter, Page, PageRequest } from '@latchkey/contracts';
import { countCapped } from '../../db/count-capped.ts';
import { appUsers, licenseKeys } from '../../db/schema/index.ts';
import { loadOwnedApplication } from '../applications/load-owned-application.ts';
import { countLicenses } from './count-licenses.ts';
import type { LicenseContext } from './license-context.ts';
import { licenseFilterWhere } from './license-filter.ts';
import type { LicenseRow } from './to-license-response.ts';

export const newestKeysFirst = [desc(licenseKeys.createdAt), desc(licenseKeys.id)];

/** The columns a list row or an export line needs, the user's current name joined in. */
export const licenseRowColumns = {
  id: licenseKeys.id,
  display: licenseKeys.display,
  planId: licenseKeys.planId,
  state: licenseKeys.state,
  note: licenseKeys.note,
  redeemBy: licenseKeys.redeemBy,
  usedByUserId: licenseKeys.usedByUserId,
  usedByUsername: appUsers.username,
  usedAt: licenseKeys.usedAt,
  bannedReason: licenseKeys.bannedReason,
  createdAt: licenseKeys.createdAt,
};

/**
 * One page of an application's licence keys, newest first, filtered by status, plan and
 * search. The page's ids come from an index first and only their rows are read (as the users
 * list does); the unfiltered total is the running total, a filtered one a capped count.
 */
export async function listLicenses({
  ctx,
  input,
}: {
  ctx: LicenseContext;
  input: { applicationId: number } & PageRequest & LicenseFilter;
}): Promise<Page<LicenseRow>> {
  const application = await loadOwnedApplication({ ctx, input });
  const now = ctx.clock.now();
  const where = licenseFilterWhere(ctx.db, application.id, input, {
    now,
    serverSecret: ctx.serverSecret,
  });
  const pageIds = ctx.db
    .select({ id: licenseKeys.id })
    .from(licenseKeys)
    .where(where)
    .orderBy(...newestKeysFirst)
    .limit(input.pageSize)
    .offset((input.page - 1) * input.pageSize);
  const isFiltered = Boolean(input.search || input.status || input.planId);
  const [rows, total] = await Promise.all([
    readLicenseRows(ctx, application.id, pageIds),
    isFiltered
      ? countCapped(ctx.db, licenseKeys, where)
      : countLicenses(ctx, { applicationId: application.id }).then((counts) => ({
          count: counts.unusedLicenses + counts.usedLicenses + counts.bannedLicenses,
          isCapped: false,
        })),
  ]);
  return { rows, totalCount: total.count, isTotalCapped: total.isCapped };
}

function readLicenseRows(ctx: LicenseContext, applicationId: number, ids: SQLWrapper) {
  const inApplication: SQL = eq(licenseKeys.applicationId, applicationId);
  return ctx.db
    .select(licenseRowColumns)
    .from(licenseKeys)
    .leftJoin(appUsers, eq(appUsers.id, licenseKeys.usedByUserId))
    .where(and(inApplication, inArray(licenseKeys.id, ids)))
    .orderBy(...newestKeysFirst);
}

/** One key as a list shows it, after a change; the owner's scope was checked by the change. */
export async function readLicenseRow(
  ctx: Pick<LicenseContext, 'db'>,
  ids: { applicationId: number; licenseId: string },
): Promise<LicenseRow> {
  const [row] = await ctx.db
    .select(licenseRowColumns)
    .from(licenseKeys)
    .leftJoin(appUsers, eq(appUsers.id, licenseKeys.usedByUserId))
    .where(
      and(eq(licenseKeys.applicationId, ids.applicationId), eq(licenseKeys.id, ids.licenseId)),
    );
  if (!row) throw new Error('licence key vanished after its change');
  return row;
}
