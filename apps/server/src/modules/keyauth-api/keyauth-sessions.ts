import { randomInt } from 'node:crypto';
import { and, eq, gt, isNotNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { keyauthSessions } from '../../db/schema/index.ts';
import { keyedDigest } from '../../lib/keyed-digest.ts';
import { createSecretSealer } from '../../lib/secret-sealing.ts';

const SESSION_ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
/** KeyAuth's clients expect 10 characters: about 59.5 random bits, looked up by keyed digest. */
const SESSION_ID_LENGTH = 10;
export const KEYAUTH_SESSION_ID_PATTERN = /^[A-Za-z0-9]{10}$/;

const sessionTokenSealer = createSecretSealer('latchkey keyauth session v1', 'session token');

/** A KeyAuth session as a request finds it. */
export interface FoundKeyauthSession {
  idDigest: string;
  enckey: string | null;
  appUserId: string | null;
  /** The client session's token (v1's), once a login bound one. */
  sessionToken: string | null;
  expiresAt: Date;
}

export interface KeyauthSessionStore {
  open(input: {
    applicationId: number;
    enckey: string | null;
    now: Date;
    hours: number;
  }): Promise<string>;
  find(applicationId: number, sessionId: string, now: Date): Promise<FoundKeyauthSession | null>;
  /**
   * `find` for `check`, the call programs repeat: a validated session's binding from memory
   * when this instance has read it before. A binding only goes stale when the client session
   * it names has ended (logout, a new login on the same session, a rename all end it first),
   * so a refusal from a remembered binding is checked again against the database (`forget`,
   * then `find`); a success from one is always true.
   */
  findRemembered(
    applicationId: number,
    sessionId: string,
    now: Date,
  ): Promise<{ session: FoundKeyauthSession | null; isRemembered: boolean }>;
  forget(idDigest: string): void;
  bind(idDigest: string, appUserId: string, sessionToken: string): Promise<void>;
  /** Logs the session out: it stays open (for its enckey) but no longer validated. */
  unbind(idDigest: string): Promise<boolean>;
}

/**
 * The sessions KeyAuth's `init` opens (keyauth_sessions). One indexed read per request by the
 * digest of its id; the expired are refused here and swept with the other retention work.
 */
export function createKeyauthSessionStore(
  db: Database,
  serverSecret: string,
  options: { rememberMs: number; maxRemembered?: number },
): KeyauthSessionStore {
  const digestOf = (sessionId: string) => keyedDigest(sessionId, 'keyauth-session', serverSecret);
  const maxRemembered = options.maxRemembered ?? 100_000;
  const remembered = new Map<string, { session: FoundKeyauthSession; until: number }>();
  /** A binding's digest to where it is remembered, so a write by digest can forget it. */
  const rememberedByDigest = new Map<string, string>();
  const forgetDigest = (idDigest: string) => {
    const rememberedAs = rememberedByDigest.get(idDigest);
    if (rememberedAs === undefined) return;
    rememberedByDigest.delete(idDigest);
    remembered.delete(rememberedAs);
  };
  const byDigest = db
    .select({
      idDigest: keyauthSessions.idDigest,
      enckey: keyauthSessions.enckey,
      appUserId: keyauthSessions.appUserId,
      sessionTokenSealed: keyauthSessions.sessionTokenSealed,
      expiresAt: keyauthSessions.expiresAt,
    })
    .from(keyauthSessions)
    .where(
      and(
        eq(keyauthSessions.idDigest, sql.placeholder('idDigest')),
        eq(keyauthSessions.applicationId, sql.placeholder('applicationId')),
        gt(keyauthSessions.expiresAt, sql.placeholder('now')),
      ),
    )
    .prepare('keyauth_session_by_digest');

  return {
    async open({ applicationId, enckey, now, hours }) {
      let sessionId = '';
      for (let index = 0; index < SESSION_ID_LENGTH; index += 1) {
        sessionId += SESSION_ID_ALPHABET[randomInt(SESSION_ID_ALPHABET.length)];
      }
      await db.insert(keyauthSessions).values({
        idDigest: digestOf(sessionId),
        applicationId,
        enckey,
        createdAt: now,
        expiresAt: new Date(now.getTime() + hours * 3_600_000),
      });
      return sessionId;
    },
    async find(applicationId, sessionId, now) {
      if (!KEYAUTH_SESSION_ID_PATTERN.test(sessionId)) return null;
      const [row] = await byDigest.execute({
        idDigest: digestOf(sessionId),
        applicationId,
        now: now.toISOString(),
      });
      if (!row) return null;
      return {
        idDigest: row.idDigest,
        enckey: row.enckey,
        appUserId: row.appUserId,
        sessionToken:
          row.sessionTokenSealed === null
            ? null
            : sessionTokenSealer.unseal(row.sessionTokenSealed, serverSecret),
        expiresAt: row.expiresAt,
      };
    },
    async findRemembered(applicationId, sessionId, now) {
      // Remembered by the id itself, in this process's memory only: no digest on the hot path.
      const rememberedAs = `${applicationId}:${sessionId}`;
      const entry = remembered.get(rememberedAs);
      if (entry && entry.until > now.getTime())
        return { session: entry.session, isRemembered: true };
      remembered.delete(rememberedAs);
      const session = await this.find(applicationId, sessionId, now);
      if (session?.sessionToken) {
        if (remembered.size >= maxRemembered) {
          remembered.clear();
          rememberedByDigest.clear();
        }
        remembered.set(rememberedAs, {
          session,
          until: Math.min(now.getTime() + options.rememberMs, session.expiresAt.getTime()),
        });
        rememberedByDigest.set(session.idDigest, rememberedAs);
      }
      return { session, isRemembered: false };
    },
    forget(idDigest) {
      forgetDigest(idDigest);
    },
    async bind(idDigest, appUserId, sessionToken) {
      forgetDigest(idDigest);
      await db
        .update(keyauthSessions)
        .set({ appUserId, sessionTokenSealed: sessionTokenSealer.seal(sessionToken, serverSecret) })
        .where(eq(keyauthSessions.idDigest, idDigest));
    },
    async unbind(idDigest) {
      forgetDigest(idDigest);
      const unbound = await db
        .update(keyauthSessions)
        .set({ appUserId: null, sessionTokenSealed: null })
        .where(and(eq(keyauthSessions.idDigest, idDigest), isNotNull(keyauthSessions.appUserId)))
        .returning({ idDigest: keyauthSessions.idDigest });
      return unbound.length > 0;
    },
  };
}
