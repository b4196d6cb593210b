import {
  heldSubscriptionsJson,
  licensedUntilMs,
  parseHeldSubscriptions,
} from '../subscriptions/index.ts';
import { and, eq, sql, type Placeholder } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import {
  applications,
  appUserSessions,
  appUsers,
  emailVerifiedColumn,
} from '../../db/schema/index.ts';
import type { Clock } from '../../lib/clock.ts';
import { createMicroBatcher } from '../../lib/micro-batcher.ts';
import type { ApplicationEvents } from '../../events/application-events.ts';
import type { EndedSession } from '../../outbox/end-sessions.ts';
import type { UserStandingLookup } from './user-standing-lookup.ts';

/** A session found by its token, with its end user's standing (heartbeat and end answer it). */
export interface FoundSession {
  id: string;
  isEnded: boolean;
  /**
   * Whether the application is still active as the database has it when the session was read
   * there; true for a session served from memory, where the cached application decides.
   * Deactivating an application ends its sessions in the same transaction: an instance whose
   * cached application has not yet heard of it would otherwise read an ended session and
   * answer SESSION_INVALID where every other answer says APP_DISABLED.
   */
  isApplicationActive: boolean;
  isActive: boolean;
  isPaused: boolean;
  expiresAt: Date | null;
  isEmailVerified: boolean;
  /** See client-outcomes.ts: the session's user's subscriptions, as standing needs them. */
  licensedUntilMs: number | null;
}

export interface SessionLookup {
  /** The application's started session with this token hash, ended or not; undefined if none. */
  find(applicationId: number, tokenHash: string): Promise<FoundSession | undefined>;
  /**
   * After the statement that ended them is committed: this instance's cache and every other
   * instance's (through applicationEvents) forget them.
   */
  announceEnded(ended: EndedSession[], log: FastifyBaseLogger): void;
}

/**
 * One application's sessions among some token hashes, open or not, with their users'
 * standing: probes of the (token_hash, application_id) unique index, each joined to its user
 * by primary key (and to its application, whose being active the answer needs when the
 * session was ended by the application's deactivation). "Ended" is returned, not filtered on: with `ended_at is null` in the WHERE,
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
      appUserId: appUserSessions.appUserId,
      lastHeartbeatAt: appUserSessions.lastHeartbeatAt,
      isEnded: sql<boolean>`${appUserSessions.endedAt} is not null`,
      isApplicationActive: applications.isActive,
      isActive: appUsers.isActive,
      isPaused: appUsers.isPaused,
      expiresAt: appUsers.expiresAt,
      isEmailVerified: emailVerifiedColumn(),
      held: heldSubscriptionsJson(appUserSessions.appUserId),
    })
    .from(appUserSessions)
    .innerJoin(appUsers, eq(appUsers.id, appUserSessions.appUserId))
    .innerJoin(applications, eq(applications.id, appUserSessions.applicationId))
    .where(
      and(
        // sql.param: an array inlined into a template would become a row of parameters.
        sql`${appUserSessions.tokenHash} = any(${Array.isArray(tokenHashes) ? sql.param(tokenHashes) : tokenHashes}::text[])`,
        eq(appUserSessions.applicationId, applicationId),
      ),
    );
}

/** An open session held in memory: which user it is (their standing is looked up apart). */
interface CachedSession {
  id: string;
  applicationId: number;
  appUserId: string;
  expiresAt: number;
}

/**
 * Heartbeat and end lookups. Open sessions are kept in memory by (application, token hash),
 * so a heartbeat, the hot path, needs no query: the session's user's standing comes from
 * `userStanding` (itself in memory). What can make a cached session wrong is forgotten when
 * it happens, here or in another instance (applicationEvents, carried by PostgreSQL NOTIFY):
 * - the client ended it, or a new one replaced it at the session limit: 'sessions-ended';
 * - the owner ended it by changing the user or the application: their 'end-user-changed',
 *   'updated' and 'deleted' drop every session of that user or application (a user paused
 *   then resumed must not find sessions the pause ended still open);
 * - the link to other instances broke: 'resync' drops everything.
 * The retention sweep ends sessions silent for `idleSessionMs` (a day at least); only
 * sessions that heard from their client within half of that are cached, for `ttlMs` (a
 * minute or so) at most, and each heartbeat served from memory is still written, so the
 * sweep can never end a cached session. `ttlMs` also bounds what an operator's SQL can leave
 * stale. Misses are micro-batched: one event-loop turn, one query per application.
 */
export function createSessionLookup(options: {
  db: Database;
  clock: Clock;
  applicationEvents: ApplicationEvents;
  userStanding: UserStandingLookup;
  ttlMs: number;
  idleSessionMs: number;
  maxEntries?: number;
}): SessionLookup {
  const { db, clock, applicationEvents, userStanding, ttlMs, idleSessionMs } = options;
  const maxEntries = options.maxEntries ?? 100_000;
  const entries = new Map<string, CachedSession>();
  const keysBySession = new Map<string, string>();
  const keysByUser = new Map<string, Set<string>>();
  // Bumped by every change: a lookup that started before a change must not cache its result.
  let generation = 0;
  // False while the link to other instances is down: their changes would go unheard.
  let isLinked = true;

  const keyOf = (applicationId: number, tokenHash: string) => `${applicationId} ${tokenHash}`;

  const forget = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    keysBySession.delete(entry.id);
    const ofUser = keysByUser.get(entry.appUserId);
    ofUser?.delete(key);
    if (ofUser?.size === 0) keysByUser.delete(entry.appUserId);
  };

  const remember = (key: string, entry: CachedSession) => {
    if (entries.size >= maxEntries) {
      const oldest = entries.keys().next();
      if (!oldest.done) forget(oldest.value);
    }
    entries.set(key, entry);
    keysBySession.set(entry.id, key);
    const ofUser = keysByUser.get(entry.appUserId) ?? new Set<string>();
    ofUser.add(key);
    keysByUser.set(entry.appUserId, ofUser);
  };

  applicationEvents.onChange((change) => {
    generation += 1;
    switch (change.kind) {
      case 'sessions-ended':
        for (const id of change.sessionIds) {
          const key = keysBySession.get(id.toLowerCase());
          if (key) forget(key);
        }
        return;
      case 'end-user-changed':
        for (const key of [...(keysByUser.get(change.userId.toLowerCase()) ?? [])]) forget(key);
        return;
      case 'end-users-changed':
        for (const userId of change.userIds) {
          for (const key of [...(keysByUser.get(userId.toLowerCase()) ?? [])]) forget(key);
        }
        return;
      case 'updated':
      case 'deleted':
        // Rare (an owner's edit of the application): walking the entries is fine.
        for (const [key, entry] of entries) {
          if (entry.applicationId === change.applicationId) forget(key);
        }
        return;
      case 'resync':
        isLinked = change.isLinked;
        entries.clear();
        keysBySession.clear();
        keysByUser.clear();
        return;
    }
  });

  const byTokens = sessionsByTokens(
    db,
    sql.placeholder('applicationId'),
    sql.placeholder('tokenHashes'),
  ).prepare('client_api_sessions_by_tokens');
  const batcher = createMicroBatcher<FoundSession>(async (applicationId, tokenHashes) => {
    const startedAt = generation;
    const sessions = await byTokens.execute({ applicationId, tokenHashes });
    const found = new Map<string, FoundSession>();
    const now = clock.now().getTime();
    for (const { tokenHash, appUserId, lastHeartbeatAt, held, ...row } of sessions) {
      const session = { ...row, licensedUntilMs: licensedUntilMs(parseHeldSubscriptions(held)) };
      found.set(tokenHash, session);
      const isLive = now - lastHeartbeatAt.getTime() < idleSessionMs / 2;
      if (generation === startedAt && isLinked && !session.isEnded && isLive) {
        remember(keyOf(applicationId, tokenHash), {
          id: session.id,
          applicationId,
          appUserId,
          expiresAt: now + ttlMs,
        });
      }
    }
    return found;
  });

  const fromMemory = async (key: string, entry: CachedSession) => {
    const standing = await userStanding.load(entry.appUserId);
    // Deleted (its sessions went with it), or it changed while the standing loaded.
    if (!standing || entries.get(key) !== entry) {
      forget(key);
      return undefined;
    }
    return {
      id: entry.id,
      isEnded: false,
      isApplicationActive: true,
      isActive: standing.isActive,
      isPaused: standing.isPaused,
      expiresAt: standing.expiresAt,
      isEmailVerified: standing.isEmailVerified,
      licensedUntilMs: standing.licensedUntilMs,
    };
  };

  return {
    async find(applicationId, tokenHash) {
      const key = keyOf(applicationId, tokenHash);
      const entry = entries.get(key);
      if (entry) {
        if (entry.expiresAt > clock.now().getTime()) {
          const session = await fromMemory(key, entry);
          if (session) return session;
        } else {
          forget(key);
        }
      }
      return batcher.load(applicationId, tokenHash);
    },
    announceEnded(ended, log) {
      const byApplication = new Map<number, string[]>();
      for (const { id, applicationId } of ended) {
        const ids = byApplication.get(applicationId) ?? [];
        ids.push(id);
        byApplication.set(applicationId, ids);
      }
      for (const [applicationId, sessionIds] of byApplication) {
        // Not awaited: a client's own end or a replaced session is no owner's revocation.
        void applicationEvents.emitChange(
          { kind: 'sessions-ended', applicationId, sessionIds },
          log,
        );
      }
    },
  };
}
