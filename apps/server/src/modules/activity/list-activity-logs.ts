import { and, desc, eq, sql } from 'drizzle-orm';
import { ACTIVITY_LOG_LIST_LIMIT, type ActivityLog } from '@latchkey/contracts';
import { activityLogs, applications, appUsers } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { loadOwnedApplication } from '../applications/load-owned-application.ts';

/**
 * The newest activity of the owner's applications (or of one of them), newest first, at
 * most ACTIVITY_LOG_LIST_LIMIT rows. Each application's newest rows come from its own
 * (application_id, created_at) index through a lateral join, so the cost does not grow with
 * the total size of the log. Rows still in the recorder's queue (≤ ~100 ms) are not yet here.
 */
export async function listActivityLogs({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: { applicationId?: number | undefined };
}): Promise<ActivityLog[]> {
  if (input.applicationId !== undefined) {
    // 404 for another owner's application, before anything is read.
    await loadOwnedApplication({ ctx, input: { applicationId: input.applicationId } });
  }
  const newestPerApplication = ctx.db
    .select()
    .from(activityLogs)
    .where(eq(activityLogs.applicationId, applications.id))
    .orderBy(desc(activityLogs.createdAt), desc(activityLogs.id))
    .limit(ACTIVITY_LOG_LIST_LIMIT)
    .as('log');
  const log = newestPerApplication;
  const rows = await ctx.db
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
    .limit(ACTIVITY_LOG_LIST_LIMIT);
  return rows.map((row) => ({
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
  }));
}
