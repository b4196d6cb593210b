import { and, eq, sql, type Placeholder } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { appUserSessions } from '../../db/schema/index.ts';
import { createMicroBatcher } from '../../lib/micro-batcher.ts';

export interface SessionLookup {
  /** The id of the application's started, unended session with this token hash, if any. */
  findOpen(applicationId: number, tokenHash: string): Promise<string | undefined>;
}

/**
 * One application's sessions among some token hashes, open or not: probes of the
 * (token_hash, application_id) unique index. "Ended" is returned, not filtered on: with
 * `ended_at is null` in the WHERE, the partial index of open sessions (application_id)
 * becomes a candidate, and statistics older than the table's growth make PostgreSQL scan
 * every open session of the application with it (sessions.test.ts).
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
    })
    .from(appUserSessions)
    .where(
      and(
        // sql.param: an array inlined into a template would become a row of parameters.
        sql`${appUserSessions.tokenHash} = any(${Array.isArray(tokenHashes) ? sql.param(tokenHashes) : tokenHashes}::text[])`,
        eq(appUserSessions.applicationId, applicationId),
      ),
    );
}

/** Heartbeat lookups, micro-batched per application: one event-loop turn, one query. */
export function createSessionLookup(db: Database): SessionLookup {
  const byTokens = sessionsByTokens(
    db,
    sql.placeholder('applicationId'),
    sql.placeholder('tokenHashes'),
  ).prepare('client_api_sessions_by_tokens');
  const batcher = createMicroBatcher<string>(async (applicationId, tokenHashes) => {
    const sessions = await byTokens.execute({ applicationId, tokenHashes });
    const open = new Map<string, string>();
    for (const session of sessions) if (!session.isEnded) open.set(session.tokenHash, session.id);
    return open;
  });
  return { findOpen: (applicationId, tokenHash) => batcher.load(applicationId, tokenHash) };
}
