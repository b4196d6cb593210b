import { and, eq, sql, type Placeholder } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { appUserSessions, appUsers } from '../../db/schema/index.ts';
import { createMicroBatcher } from '../../lib/micro-batcher.ts';

/** A session found by its token, with its end user's standing (heartbeat and end answer it). */
export interface FoundSession {
  id: string;
  isEnded: boolean;
  isActive: boolean;
  isPaused: boolean;
  expiresAt: Date | null;
}

export interface SessionLookup {
  /** The application's started session with this token hash, ended or not; undefined if none. */
  find(applicationId: number, tokenHash: string): Promise<FoundSession | undefined>;
}

/**
 * One application's sessions among some token hashes, open or not, with their users'
 * standing: probes of the (token_hash, application_id) unique index, each joined to its user
 * by primary key. "Ended" is returned, not filtered on: with `ended_at is null` in the WHERE,
 * the partial index of open sessions (application_id) becomes a candidate, and statistics
 * older than the table's growth make PostgreSQL scan every open session of the application
 * with it (sessions.test.ts). A deleted user's sessions are gone with them (cascade).
 */
export function sessionsByTokens(
  db: Database,
  applicationId: number | Placeholder,
  tokenHashes: string[] | Placeholder,
) {
  return db
    .select({
      id: appUserSessions.id,
      tokenHash: appUserSessions.tokenHash,
      isEnded: sql<boolean>`${appUserSessions.endedAt} is not null`,
      isActive: appUsers.isActive,
      isPaused: appUsers.isPaused,
      expiresAt: appUsers.expiresAt,
    })
    .from(appUserSessions)
    .innerJoin(appUsers, eq(appUsers.id, appUserSessions.appUserId))
    .where(
      and(
        // sql.param: an array inlined into a template would become a row of parameters.
        sql`${appUserSessions.tokenHash} = any(${Array.isArray(tokenHashes) ? sql.param(tokenHashes) : tokenHashes}::text[])`,
        eq(appUserSessions.applicationId, applicationId),
      ),
    );
}

/** Heartbeat and end lookups, micro-batched per application: one event-loop turn, one query. */
export function createSessionLookup(db: Database): SessionLookup {
  const byTokens = sessionsByTokens(
    db,
    sql.placeholder('applicationId'),
    sql.placeholder('tokenHashes'),
  ).prepare('client_api_sessions_by_tokens');
  const batcher = createMicroBatcher<FoundSession>(async (applicationId, tokenHashes) => {
    const sessions = await byTokens.execute({ applicationId, tokenHashes });
    const found = new Map<string, FoundSession>();
    for (const session of sessions) found.set(session.tokenHash, session);
    return found;
  });
  return { find: (applicationId, tokenHash) => batcher.load(applicationId, tokenHash) };
}
