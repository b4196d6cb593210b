import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { appUserSessions } from '../../db/schema/index.ts';
import { createMicroBatcher } from '../../lib/micro-batcher.ts';

export interface SessionLookup {
  /** The id of the application's started, unended session with this token hash, if any. */
  findOpen(applicationId: number, tokenHash: string): Promise<string | undefined>;
}

/**
 * Lookups on the (application_id, token_hash) unique index, micro-batched per application:
 * the heartbeats of one event-loop turn share one prepared `= any($2)` query.
 */
export function createSessionLookup(db: Database): SessionLookup {
  const openByTokens = db
    .select({ id: appUserSessions.id, tokenHash: appUserSessions.tokenHash })
    .from(appUserSessions)
    .where(
      and(
        eq(appUserSessions.applicationId, sql.placeholder('applicationId')),
        sql`${appUserSessions.tokenHash} = any(${sql.placeholder('tokenHashes')}::text[])`,
        isNull(appUserSessions.endedAt),
      ),
    )
    .prepare('client_api_open_sessions');
  const batcher = createMicroBatcher<string>(async (applicationId, tokenHashes) => {
    const sessions = await openByTokens.execute({ applicationId, tokenHashes });
    return new Map(sessions.map((session) => [session.tokenHash, session.id]));
  });
  return { findOpen: (applicationId, tokenHash) => batcher.load(applicationId, tokenHash) };
}
