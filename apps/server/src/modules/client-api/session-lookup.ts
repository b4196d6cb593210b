import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { appUserSessions } from '../../db/schema/index.ts';

export interface SessionLookup {
  /** The id of the application's started, unended session with this token hash, if any. */
  findOpen(applicationId: number, tokenHash: string): Promise<string | undefined>;
}

/** One lookup on the (application_id, token_hash) unique index, as a prepared statement. */
export function createSessionLookup(db: Database): SessionLookup {
  const openByToken = db
    .select({ id: appUserSessions.id })
    .from(appUserSessions)
    .where(
      and(
        eq(appUserSessions.applicationId, sql.placeholder('applicationId')),
        eq(appUserSessions.tokenHash, sql.placeholder('tokenHash')),
        isNull(appUserSessions.endedAt),
      ),
    )
    .limit(1)
    .prepare('client_api_open_session');
  return {
    async findOpen(applicationId, tokenHash) {
      const [session] = await openByToken.execute({ applicationId, tokenHash });
      return session?.id;
    },
  };
}
