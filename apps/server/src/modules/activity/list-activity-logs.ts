import { and, desc, eq, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import {
  SEARCH_COUNT_LIMIT,
  type ActivityLog,
  type ActivityLogFilter,
  type Page,
  type PageRequest,
} from '@latchkey/contracts';
import { fewMatchesPage as fewMatchesPageOf } from '../../db/few-matches-page.ts';
import { withoutParallelWorkers } from '../../db/without-parallel-workers.ts';
import { activityLogs, applications, appUsers } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { loadOwnedApplication } from '../../ownership/load-owned-application.ts';
import { activityLogContentWhere, searchMatchesWhere } from './activity-log-filter-where.ts';
import { countActivityRows } from './activity-totals.ts';

type ActivityLogQuery = ActivityLogFilter & PageRequest;

/**
 * One page of the activity of the owner's applications (or of one of them), newest first,
 * filtered by event and search, and how many logs match in all. The page's ids are found
 * first (two ways, below), and only their rows are read. Rows still in the recorder's queue
 * (≤ ~100 ms) are not yet here.
 */
export async function listActivityLogs({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: ActivityLogQuery;
}): Promise<Page<ActivityLog>> {
  if (input.applicationId !== undefined) {
    // 404 for another owner's application, before anything is read.
    await loadOwnedApplication({ ctx, input: { applicationId: input.applicationId } });
  }
  if (input.search) {
    // How many match decides how to find the page (as in the keys and users lists): up to
    // SEARCH_COUNT_LIMIT matches are read from the search's indexes and sorted; more than that
    // (dense in the log, or more matching names than that) and a page is found soonest by
    // walking the log newest first.
    const where = await searchMatchesWhere(ctx, { ...input, search: input.search });
    const few = where && (await fewMatchesPage(ctx, input, where));
    if (few) return few;
    return {
      rows: await readLogs(ctx, newestPageIds(ctx, input)),
      totalCount: SEARCH_COUNT_LIMIT,
      isTotalCapped: true,
    };
  }
  const [rows, totalCount] = await Promise.all([
    readLogs(ctx, newestPageIds(ctx, input)),
    countActivityRows(ctx, input),
  ]);
  return { rows, totalCount };
}

/**
 * Without a search, or with one that matches densely: each application's newest matching
 * rows come from its own (application_id[, event], created_at) index through a lateral join,
 * so a page costs its rows plus the offset per application (over the rows the search skips),
 * whatever the size of the log (a single ORDER BY over the owner's applications sorted all
 * of their rows: 400 ms at 600,000). The ids are read in the same statement as their rows
 * (readLogs); without a search the total comes from the running totals.
 */
function newestPageIds(ctx: OwnerContext, input: ActivityLogQuery) {
  const offset = (input.page - 1) * input.pageSize;
  const log = ctx.db
    .select({ id: activityLogs.id, createdAt: activityLogs.createdAt })
    .from(activityLogs)
    .where(
      and(
        eq(activityLogs.applicationId, applications.id),
        activityLogContentWhere(ctx, input, null),
      ),
    )
    .orderBy(desc(activityLogs.createdAt), desc(activityLogs.id))
    .limit(offset + input.pageSize)
    .as('log');
  return ctx.db
    .select({ id: log.id, createdAt: log.createdAt })
    .from(applications)
    .innerJoinLateral(log, sql`true`)
    .where(
      and(
        eq(applications.ownerAccountId, ctx.account.id),
        input.applicationId === undefined ? undefined : eq(applications.id, input.applicationId),
      ),
    )
    .orderBy(desc(log.createdAt), desc(log.id))
    .limit(input.pageSize)
    .offset(offset);
}

/**
 * The page when a search matches at most SEARCH_COUNT_LIMIT rows, else null: the matches come
 * from a bitmap of the search's indexes (`where`, from searchMatchesWhere), read once and
 * without parallel workers.
 */
async function fewMatchesPage(
  ctx: OwnerContext,
  input: ActivityLogQuery,
  where: SQL,
): Promise<Page<ActivityLog> | null> {
  const few = await withoutParallelWorkers(ctx.db, (tx) =>
    fewMatchesPageOf<number>(
      tx,
      (limit) =>
        tx
          .select({ id: activityLogs.id, createdAt: activityLogs.createdAt })
          .from(activityLogs)
          .where(where)
          .limit(limit)
          .as('matches'),
      input,
    ),
  );
  if (!few) return null;
  return {
    rows: await readLogs(ctx, { ids: few.ids, times: few.times }),
    totalCount: few.matched,
    isTotalCapped: false,
  };
}

/**
 * The logs of a page's keys (id and created_at), newest first, with their application's and
 * end user's names. The keys come as a query or as lists (a sparse search's few); either way
 * each row is looked up in its own day's partition alone. A list of ids alone was looked up in
 * every partition, and planned as a parallel scan whose workers took longer to start (~8 ms)
 * than the lookups.
 */
async function readLogs(
  ctx: OwnerContext,
  keys: { ids: number[]; times: string[] } | SQLWrapper,
): Promise<ActivityLog[]> {
  if ('ids' in keys && keys.ids.length === 0) return [];
  const rows = await ctx.db
    .select({
      log: activityLogs,
      applicationName: applications.name,
      appUsername: appUsers.username,
    })
    .from(activityLogs)
    .innerJoin(applications, eq(applications.id, activityLogs.applicationId))
    .leftJoin(appUsers, eq(appUsers.id, activityLogs.appUserId))
    .where(
      and(
        'ids' in keys
          ? sql`(${activityLogs.id}, ${activityLogs.createdAt}) in (select * from unnest(${sql.param(keys.ids)}::bigint[], ${sql.param(keys.times)}::timestamptz[]))`
          : sql`(${activityLogs.id}, ${activityLogs.createdAt}) in ${keys}`,
        eq(applications.ownerAccountId, ctx.account.id),
      ),
    )
    .orderBy(desc(activityLogs.createdAt), desc(activityLogs.id));
  return rows.map(({ log, applicationName, appUsername }) => ({
    id: log.id,
    event: log.event as ActivityLog['event'],
    success: log.success,
    applicationId: log.applicationId,
    application: { name: applicationName },
    appUser: appUsername === null ? null : { username: appUsername },
    username: log.username,
    ipAddress: log.ipAddress,
    errorMessage: log.errorMessage,
    metadata: log.metadata ?? {},
    createdAt: log.createdAt.toISOString(),
  }));
}
