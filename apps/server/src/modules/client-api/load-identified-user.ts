import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { appUsers, emailVerifiedColumn } from '../../db/schema/index.ts';
import { heldSubscriptionsJson, parseHeldSubscriptions } from '../subscriptions/index.ts';
import type { IdentifiedUser } from './identified-user.ts';

/**
 * The user a login found by id rather than by name and password (key login's key user, a
 * machine's trial account), with what its last checks need; null when the user is gone.
 */
export async function loadIdentifiedUser(
  db: Database,
  ids: { applicationId: number; userId: string },
): Promise<IdentifiedUser | null> {
  const [user] = await db
    .select({
      id: appUsers.id,
      username: appUsers.username,
      email: appUsers.email,
      isActive: appUsers.isActive,
      isPaused: appUsers.isPaused,
      expiresAt: appUsers.expiresAt,
      isEmailVerified: emailVerifiedColumn(),
      hwid: appUsers.hwid,
      held: heldSubscriptionsJson(appUsers.id),
    })
    .from(appUsers)
    .where(and(eq(appUsers.id, ids.userId), eq(appUsers.applicationId, ids.applicationId)));
  return user ? { ...user, held: parseHeldSubscriptions(user.held) } : null;
}
