import { and, eq, sql } from 'drizzle-orm';
import { activityCounts, activityLogs, appUserSessions } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { countActiveAppUsers } from '../app-users/count-app-users.ts';
import { isLiveSession } from '../dashboard/get-dashboard-stats.ts';
import { loadOwnedApplication } from './load-owned-application.ts';

export interface ApplicationStatsResult {
  totalUsers: number;
  activeUsers: number;
  activeSessions: number;
  totalApiRequests: number;
  loginSuccessRate: number;
  lastActivity: Date | null;
}

/** Live numbers for one of the owner's applications (the management page polls them). */
export async function getApplicationStats({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: { applicationId: number };
}): Promise<ApplicationStatsResult> {
  const application = await loadOwnedApplication({ ctx, input });
  const now = ctx.clock.now();
  const [users, [sessions], [logins]] = await Promise.all([
    countActiveAppUsers(ctx, { applicationId: application.id, now }),
    ctx.db
      .select({ live: sql<number>`count(*)::int` })
      .from(appUserSessions)
      .where(and(eq(appUserSessions.applicationId, application.id), isLiveSession(now))),
    // Running totals kept by triggers on activity_logs (schema/activity-counts.ts): a count
    // over the log itself read every row of it, a million for a busy application.
    ctx.db
      .select({
        succeeded: sql<number>`coalesce(sum(${activityCounts.loginSuccesses}), 0)::float8`,
        attempted: sql<number>`coalesce(sum(${activityCounts.loginAttempts}), 0)::float8`,
        // The newest row, from the (application_id, created_at) index.
        newest:
          sql<Date | null>`(select max(${activityLogs.createdAt}) from ${activityLogs} where ${activityLogs.applicationId} = ${application.id})`.mapWith(
            activityLogs.createdAt,
          ),
      })
      .from(activityCounts)
      .where(eq(activityCounts.applicationId, application.id)),
  ]);
  const attempted = logins?.attempted ?? 0;
  const succeeded = logins?.succeeded ?? 0;
  return {
    totalUsers: users.total,
    activeUsers: users.active,
    activeSessions: sessions?.live ?? 0,
    totalApiRequests: application.totalApiRequests,
    loginSuccessRate: attempted === 0 ? 0 : Math.round((succeeded / attempted) * 1000) / 10,
    lastActivity: latest(logins?.newest ?? null, application.lastActivityAt),
  };
}

function latest(a: Date | null, b: Date | null): Date | null {
  if (!a) return b;
  if (!b) return a;
  return a > b ? a : b;
}
