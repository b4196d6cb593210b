import { and, desc, eq, inArray, type SQL, type SQLWrapper } from 'drizzle-orm';
import {
  SEARCH_COUNT_LIMIT,
  type LicenseFilter,
  type Page,
  type PageRequest,
} from '@latchkey/contracts';
import { countCapped } from '../../db/count-capped.ts';
import { fewMatchesPage as fewMatchesPageOf } from '../../db/few-matches-page.ts';
import { appUsers, licenseKeys } from '../../db/schema/index.ts';
import { loadOwnedApplication } from '../../ownership/load-owned-application.ts';
import { countLicenses } from './count-licenses.ts';
import type { LicenseContext } from './license-context.ts';
import { licenseFilterWhere, licenseSearchMatches } from './license-filter.ts';
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
  const options = { now: ctx.clock.now(), serverSecret: ctx.serverSecret };
  const where = licenseFilterWhere(ctx.db, application.id, input, options);
  const search = input.search;
  if (search) {
    // How many match decides how to find the page (as in the users list): up to
    // SEARCH_COUNT_LIMIT matches are read from the indexed lookups and sorted; more than
    // that (a note shared by a whole batch) and the page is found sooner by walking the keys
    // newest first with the search as a filter, since so many of them match.
    const few = await fewMatchesPage(ctx, application.id, { ...input, search }, options);
    if (few) return few;
    return {
      rows: await readLicenseRows(ctx, application.id, newestPageIds(ctx, input, where)),
      totalCount: SEARCH_COUNT_LIMIT,
      isTotalCapped: true,
    };
  }
  const isFiltered = Boolean(input.status || input.planId);
  const [rows, total] = await Promise.all([
    readLicenseRows(ctx, application.id, newestPageIds(ctx, input, where)),
    isFiltered
      ? countCapped(ctx.db, licenseKeys, where)
      : countLicenses(ctx, { applicationId: application.id }).then((counts) => ({
          count: counts.unusedLicenses + counts.usedLicenses + counts.bannedLicenses,
          isCapped: false,
        })),
  ]);
  return { rows, totalCount: total.count, isTotalCapped: total.isCapped };
}

function newestPageIds(ctx: LicenseContext, input: PageRequest, where: SQL) {
  return ctx.db
    .select({ id: licenseKeys.id })
    .from(licenseKeys)
    .where(where)
    .orderBy(...newestKeysFirst)
    .limit(input.pageSize)
    .offset((input.page - 1) * input.pageSize);
}

/** The page when a search matches at most SEARCH_COUNT_LIMIT keys, else null. */
async function fewMatchesPage(
  ctx: LicenseContext,
  applicationId: number,
  input: PageRequest & LicenseFilter & { search: string },
  options: { now: Date; serverSecret: string },
): Promise<Page<LicenseRow> | null> {
  const few = await fewMatchesPageOf<string>(
    ctx.db,
    (limit) => licenseSearchMatches(ctx.db, applicationId, input, { ...options, limit }),
    input,
  );
  if (!few) return null;
  return {
    rows: few.ids.length === 0 ? [] : await readLicenseRows(ctx, applicationId, few.ids),
    totalCount: few.matched,
    isTotalCapped: false,
  };
}

function readLicenseRows(ctx: LicenseContext, applicationId: number, ids: SQLWrapper | string[]) {
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
