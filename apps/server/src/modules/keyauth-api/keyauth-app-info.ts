import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import {
  applications,
  appUserCounts,
  appUserSessions,
  appUsers,
  licenseKeyCounts,
} from '../../db/schema/index.ts';
import type { ClientCallServices } from '../client-api/index.ts';

type InfoContext = ReturnType<ClientCallServices['contextOf']>;

/** KeyAuth's `appinfo`: every number as a string, as KeyAuth's clients declare them. */
export interface KeyauthAppInfo {
  numUsers: string;
  numOnlineUsers: string;
  numKeys: string;
  version: string;
  customerPanelLink: string;
}

/** A session is online while it has had a heartbeat within this long (a heartbeat is every 30 s). */
const ONLINE_WITHIN_MS = 90_000;
/** init and fetchStats read the counters at most this often per application and instance. */
const APP_INFO_TTL_MS = 30_000;

export type AppInfoCache = Map<
  number,
  {
    counts: Omit<KeyauthAppInfo, 'version' | 'customerPanelLink'>;
    portalId: string | null;
    expiresAt: number;
  }
>;

export const createAppInfoCache = (): AppInfoCache => new Map();

/**
 * The numbers init and fetchStats answer, from the counter tables (a few rows per application)
 * and the open-sessions index, kept for 30 s: a program's start must not count its vendor's
 * users. The customer panel is Latchkey's end-user portal when the application has it on.
 */
export async function readKeyauthAppInfo(
  ctx: InfoContext & { origin: string },
  cache: AppInfoCache,
): Promise<KeyauthAppInfo> {
  const { application } = ctx;
  const now = ctx.clock.now().getTime();
  let entry = cache.get(application.id);
  if (!entry || entry.expiresAt <= now) {
    const [row] = await ctx.db
      .select({
        users: sql<string>`(select coalesce(sum(${appUserCounts.userCount}), 0)::text from ${appUserCounts} where ${appUserCounts.applicationId} = ${application.id})`,
        keys: sql<string>`(select coalesce(sum(${licenseKeyCounts.unusedCount} + ${licenseKeyCounts.usedCount} + ${licenseKeyCounts.bannedCount}), 0)::text from ${licenseKeyCounts} where ${licenseKeyCounts.applicationId} = ${application.id})`,
        portalId: sql<
          string | null
        >`(select case when ${applications.isPortalEnabled} then ${applications.portalPublicId} end from ${applications} where ${applications.id} = ${application.id})`,
        online: sql<string>`(select count(*)::text from ${appUserSessions} where ${appUserSessions.applicationId} = ${application.id} and ${appUserSessions.endedAt} is null and ${appUserSessions.lastHeartbeatAt} > ${new Date(now - ONLINE_WITHIN_MS).toISOString()})`,
      })
      .from(sql`(select 1) as one`);
    entry = {
      counts: { numUsers: row!.users, numOnlineUsers: row!.online, numKeys: row!.keys },
      portalId: row!.portalId,
      expiresAt: now + APP_INFO_TTL_MS,
    };
    if (cache.size >= 10_000) cache.clear();
    cache.set(application.id, entry);
  }
  return {
    ...entry.counts,
    version: application.version,
    customerPanelLink: entry.portalId ? `${ctx.origin}/portal/${entry.portalId}` : '',
  };
}

/**
 * KeyAuth's `fetchOnline`: the names of the users with a session online now, masked (the first
 * three characters, then one `*` per character left), since any program of the application may
 * ask and end users should not learn each other's names. At most 100, alphabetical.
 */
export async function readOnlineNames(ctx: InfoContext): Promise<string[]> {
  const since = new Date(ctx.clock.now().getTime() - ONLINE_WITHIN_MS);
  const rows = await ctx.db
    .selectDistinct({ username: appUsers.username })
    .from(appUserSessions)
    .innerJoin(appUsers, eq(appUsers.id, appUserSessions.appUserId))
    .where(
      and(
        eq(appUserSessions.applicationId, ctx.application.id),
        isNull(appUserSessions.endedAt),
        gt(appUserSessions.lastHeartbeatAt, since),
      ),
    )
    .orderBy(appUsers.username)
    .limit(100);
  return rows.map(({ username }) => maskName(username));
}

export const maskName = (name: string): string => {
  const characters = [...name];
  return characters.slice(0, 3).join('') + '*'.repeat(Math.max(0, characters.length - 3));
};
