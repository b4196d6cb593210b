import { inArray } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { appUserSessions, type AppUser } from '../../db/schema/index.ts';
import { endSessionsWithDeliveries } from '../../outbox/end-sessions.ts';
import { isInGoodStanding } from './is-in-good-standing.ts';

/**
 * The rule of every owner change of end users, one or a batch: a user it leaves paused,
 * inactive or expired loses their open client sessions in the change's own transaction, so
 * the owner's action takes effect at once, not at the client's next login.
 */
export async function endSessionsOutOfStanding(
  tx: Database,
  users: Pick<AppUser, 'id' | 'isActive' | 'isPaused' | 'expiresAt'>[],
  now: Date,
): Promise<void> {
  const userIds = users.filter((user) => !isInGoodStanding(user, now)).map((user) => user.id);
  if (userIds.length === 0) return;
  await endSessionsWithDeliveries(tx, inArray(appUserSessions.appUserId, userIds), 'owner', now);
}
