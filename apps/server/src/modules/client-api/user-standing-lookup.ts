import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { appUsers } from '../../db/schema/index.ts';

/** What verify and session start need to know about an end user. */
export interface UserStanding {
  id: string;
  applicationId: number;
  isActive: boolean;
  isPaused: boolean;
  expiresAt: Date | null;
  lastLogin: Date | null;
}

export interface UserStandingLookup {
  /** The user with this id (a UUID), in any application; undefined if none. */
  load(userId: string): Promise<UserStanding | undefined>;
}

/** One primary-key lookup per call, as a prepared statement (parsed and planned once). */
export function createUserStandingLookup(db: Database): UserStandingLookup {
  const byId = db
    .select({
      id: appUsers.id,
      applicationId: appUsers.applicationId,
      isActive: appUsers.isActive,
      isPaused: appUsers.isPaused,
      expiresAt: appUsers.expiresAt,
      lastLogin: appUsers.lastLogin,
    })
    .from(appUsers)
    .where(eq(appUsers.id, sql.placeholder('userId')))
    .limit(1)
    .prepare('client_api_user_standing');
  return {
    async load(userId) {
      const [user] = await byId.execute({ userId });
      return user;
    },
  };
}
