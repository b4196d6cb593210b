import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { appUsers } from '../../db/schema/index.ts';
import { createMicroBatcher } from '../../lib/micro-batcher.ts';

/** What verify needs to know about an end user. */
export interface UserStanding {
  id: string;
  applicationId: number;
  isActive: boolean;
  isPaused: boolean;
  expiresAt: Date | null;
}

export interface UserStandingLookup {
  /** The user with this id (a UUID), in any application; undefined if none. */
  load(userId: string): Promise<UserStanding | undefined>;
}

/**
 * Primary-key lookups, read fresh on every call (a pause or an expiry applies at once) and
 * micro-batched: the lookups of one event-loop turn share one prepared `= any($1)` query.
 */
export function createUserStandingLookup(db: Database): UserStandingLookup {
  const byIds = db
    .select({
      id: appUsers.id,
      applicationId: appUsers.applicationId,
      isActive: appUsers.isActive,
      isPaused: appUsers.isPaused,
      expiresAt: appUsers.expiresAt,
    })
    .from(appUsers)
    .where(sql`${appUsers.id} = any(${sql.placeholder('userIds')}::uuid[])`)
    .prepare('client_api_user_standing');
  const batcher = createMicroBatcher<UserStanding>(async (_group, userIds) => {
    const users = await byIds.execute({ userIds });
    return new Map(users.map((user) => [user.id, user]));
  });
  return {
    // PostgreSQL answers with lower-case UUIDs; the key must match what comes back.
    load: (userId) => batcher.load(0, userId.toLowerCase()),
  };
}
