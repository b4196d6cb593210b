import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { DashboardStats } from '@latchkey/contracts';
import { applications, appUserSessions } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { countAppUsers } from '../app-users/index.ts';
import { countLicenses } from '../licenses/index.ts';

/** A client session with no heartbeat for this long no longer counts as live. */
export const LIVE_SESSION_WINDOW_MS = 90_000;

/** Not ended and heard from within the window: the one definition of "live" for every stat. */
export function isLiveSession(now: Date) {
  return and(
    isNull(appUserSessions.endedAt),
    gt(appUserSessions.lastHeartbeatAt, new Date(now.getTime() - LIVE_SESSION_WINDOW_MS)),
  );
}

/** Totals over the owner's own applications; each application has exactly one API key. */
export async function getDashboardStats({ ctx }: { ctx: OwnerContext }): Promise<DashboardStats> {
  const ownerId = ctx.account.id;
  const [applicationCounts, totalUsers, sessionCounts, licenseCounts] = await Promise.all([
    ctx.db
      .select({
        total: sql<number>`count(*)::int`,
        active: sql<number>`count(*) filter (where ${applications.isActive})::int`,
      })
      .from(applications)
      .where(eq(applications.ownerAccountId, ownerId)),
    countAppUsers(ctx),
    ctx.db
      .select({ total: sql<number>`count(*)::int` })
      .from(appUserSessions)
      .innerJoin(applications, eq(applications.id, appUserSessions.applicationId))
      .where(and(eq(applications.ownerAccountId, ownerId), isLiveSession(ctx.clock.now()))),
    countLicenses(ctx),
  ]);
  const totalApplications = applicationCounts[0]?.total ?? 0;
  const activeApplications = applicationCounts[0]?.active ?? 0;
  return {
    totalUsers,
    totalApiKeys: totalApplications,
    activeApiKeys: activeApplications,
    accountType: ctx.account.accountType,
    totalApplications,
    activeApplications,
    totalActiveSessions: sessionCounts[0]?.total ?? 0,
    unusedLicenses: licenseCounts.unusedLicenses,
    usedLicenses: licenseCounts.usedLicenses,
  };
}
