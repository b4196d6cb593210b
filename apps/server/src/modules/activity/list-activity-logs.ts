import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { ActivityLog, ActivityLogFilter, Page, PageRequest } from '@latchkey/contracts';
import { activityLogs, applications, appUsers } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { loadOwnedApplication } from '../applications/load-owned-application.ts';
import { activityLogContentWhere, activityLogFilterWhere } from './activity-log-filter-where.ts';

/**
 * One page of the activity of the owner's applications (or of one of them), newest first,
 * filtered by event and search, and how many logs match in all. Each application's newest
 * matching rows come from its own (application_id[, event], created_at) index through a
 * lateral join, so a page costs its rows plus the offset per application, whatever the size
 * of the log; a single ORDER BY over the owner's applications would sort all of their rows
 * (400 ms at 600,000 rows). The count reads every matching row: a search has no index to
 * use (no trigram index on every PostgreSQL we run on), but never leaves this owner's logs.
 * Rows still in the recorder's queue (≤ ~100 ms) are not yet here.
 */
export async function listActivityLogs({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: ActivityLogFilter & PageRequest;
}): Promise<Page<ActivityLog>> {
  if (input.applicationId !== undefined) {
    // 404 for another owner's application, before anything is read.
    await loadOwnedApplication({ ctx, input: { applicationId: input.applicationId } });
  }
  const offset = (input.page - 1) * input.pageSize;
  const newestPerApplication = ctx.db
    .select()
    .from(activityLogs)
    .where(
      and(eq(activityLogs.applicationId, applications.id), activityLogContentWhere(ctx, input)),
    )
    .orderBy(desc(activityLogs.createdAt), desc(activityLogs.id))
    .limit(offset + input.pageSize)
    .as('log');
  const log = newestPerApplication;
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select({
        id: log.id,
        event: log.event,
        success: log.success,
        applicationId: log.applicationId,
        applicationName: applications.name,
        appUsername: appUsers.username,
        username: log.username,
        ipAddress: log.ipAddress,
        errorMessage: log.errorMessage,
        metadata: log.metadata,
        createdAt: log.createdAt,
      })
      .from(applications)
      .innerJoinLateral(newestPerApplication, sql`true`)
      .leftJoin(appUsers, eq(appUsers.id, log.appUserId))
      .where(
        and(
          eq(applications.ownerAccountId, ctx.account.id),
          input.applicationId === undefined ? undefined : eq(applications.id, input.applicationId),
        ),
      )
      .orderBy(desc(log.createdAt), desc(log.id))
      .limit(input.pageSize)
      .offset(offset),
    ctx.db.select({ value: count() }).from(activityLogs).where(activityLogFilterWhere(ctx, input)),
  ]);
  return {
    rows: rows.map((row) => ({
      id: row.id,
      event: row.event as ActivityLog['event'],
      success: row.success,
      applicationId: row.applicationId,
      application: { name: row.applicationName },
      appUser: row.appUsername === null ? null : { username: row.appUsername },
      username: row.username,
      ipAddress: row.ipAddress,
      errorMessage: row.errorMessage,
      metadata: row.metadata ?? {},
      createdAt: row.createdAt.toISOString(),
    })),
    totalCount: total?.value ?? 0,
  };
}
