import { sql } from 'drizzle-orm';
import type { DatabaseConnection } from '../../db/client.ts';
import { appUserSessions, liveSessionSamples } from '../../db/schema/index.ts';
import type { Context } from '../../http/request-context.ts';
import { isLiveSession } from '../dashboard/index.ts';

/** Arbitrary but fixed: every instance must ask for the same advisory lock. */
export const LIVE_SESSION_SAMPLE_LOCK_KEY = 0x4c4b_4c53; // 'LKLS'

/**
 * Records each application's live sessions now into the current UTC hour's sample, keeping
 * the hour's highest. Live means heard from within the last 90 seconds, a window that moves
 * with the clock rather than with any write, so no trigger can keep it: it is sampled, one
 * statement over the open-sessions index. One instance at a time (the others would only
 * write the same figures again; the greatest() keeps a second writer harmless anyway).
 * Answers the applications sampled, or null when another instance holds the lock.
 */
export async function sampleLiveSessions({
  ctx,
}: {
  ctx: Context & { database: Pick<DatabaseConnection, 'runExclusively'> };
}): Promise<number | null> {
  let sampled = 0;
  const ran = await ctx.database.runExclusively(LIVE_SESSION_SAMPLE_LOCK_KEY, async () => {
    const now = ctx.clock.now();
    const hour = new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000);
    const written = await ctx.db
      .insert(liveSessionSamples)
      .select(
        ctx.db
          .select({
            applicationId: appUserSessions.applicationId,
            hour: sql`${hour.toISOString()}::timestamptz`.as('hour'),
            liveSessions: sql<number>`count(*)::int`.as('live_sessions'),
          })
          .from(appUserSessions)
          .where(isLiveSession(now))
          .groupBy(appUserSessions.applicationId)
          .orderBy(appUserSessions.applicationId),
      )
      .onConflictDoUpdate({
        target: [liveSessionSamples.applicationId, liveSessionSamples.hour],
        set: {
          liveSessions: sql`greatest(${liveSessionSamples.liveSessions}, excluded.live_sessions)`,
        },
      })
      .returning({ applicationId: liveSessionSamples.applicationId });
    sampled = written.length;
  });
  return ran ? sampled : null;
}
