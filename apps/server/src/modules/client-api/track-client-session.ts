import {
  heldSubscriptionsJson,
  licensedUntilMs,
  parseHeldSubscriptions,
} from '../subscriptions/index.ts';
import { and, desc, eq, gt, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import {
  SESSION_START_WINDOW_SECONDS,
  SESSION_TOKEN_PATTERN,
  type ClientSessionRequest,
  type ClientSessionResponse,
} from '@latchkey/contracts';
import {
  appUsers,
  appUserSessions,
  emailVerifiedColumn,
  seatLeases,
} from '../../db/schema/index.ts';
import { seatTermsOf } from '../seats/index.ts';
import { constantTimeEqual, hashToken } from '../../lib/tokens.ts';
import type { ClientContext } from './client-context.ts';
import {
  appDisabled,
  clientMessages,
  refusal,
  standingRefusal,
  UUID_PATTERN,
  type ClientOutcome,
} from './client-outcomes.ts';
import {
  endSessions,
  endSessionsWithDeliveries,
  type EndedSession,
} from '../../outbox/end-sessions.ts';
import type { FoundSession, SessionLookup } from './session-lookup.ts';

type SessionContext = ClientContext & { sessions: SessionLookup };
type StartInput = Extract<ClientSessionRequest, { action: 'start' }>;

const sessionInvalid = (message: string) => refusal('SESSION_INVALID', message);

/**
 * POST /api/v1/session/track. Sessions are kept by the SHA-256 of their token only.
 * - start: `user_id` and a `sess_…` token, for a user of this application in good standing
 *   who logged in within the last 10 minutes, proving that login: the token is the one login
 *   issued, or the start comes from the login's IP address (and, when it sends a hwid, the
 *   login's HWID). Starting again with the same token for the same user is a harmless retry;
 *   any other reuse of a token is refused. Beyond the application's session limit, the
 *   user's oldest open sessions end.
 * - heartbeat, end: the token alone; only a started, unended session of this application
 *   whose user is in good standing. A user no longer in good standing gets that answer and
 *   the session ends. A heartbeat after a silence of more than 90 s makes a session active
 *   again; an ended session stays ended.
 */
export async function trackClientSession({
  ctx,
  input,
}: {
  ctx: SessionContext;
  input: ClientSessionRequest;
}): Promise<ClientSessionResponse> {
  if (!ctx.application.isActive) return appDisabled();
  switch (input.action) {
    case 'start':
      return startSession(ctx, input);
    case 'heartbeat':
      return heartbeat(ctx, input.session_token);
    case 'end':
      return endSession(ctx, input.session_token);
  }
}

async function startSession(
  ctx: SessionContext,
  input: StartInput,
): Promise<ClientSessionResponse> {
  const token = input.session_token;
  if (!SESSION_TOKEN_PATTERN.test(token)) {
    return sessionInvalid(clientMessages.sessionTokenMalformed);
  }
  if (!UUID_PATTERN.test(input.user_id)) {
    return refusal('USER_NOT_FOUND', clientMessages.userNotFound);
  }
  const { application } = ctx;
  const now = ctx.clock.now();
  const tokenHash = hashToken(token);
  // The user's row stays locked until the session is in and the surplus ended, so that
  // concurrent starts for one user are counted one after the other against the limit.
  let replaced: EndedSession[] = [];
  const response = await ctx.db.transaction(async (tx): Promise<ClientSessionResponse> => {
    const [user] = await tx
      .select({
        id: appUsers.id,
        isActive: appUsers.isActive,
        isPaused: appUsers.isPaused,
        expiresAt: appUsers.expiresAt,
        isEmailVerified: emailVerifiedColumn(),
        lastLogin: appUsers.lastLogin,
        lastLoginIp: appUsers.lastLoginIp,
        lastLoginHwid: appUsers.lastLoginHwid,
        lastLoginTokenHash: appUsers.lastLoginTokenHash,
        held: heldSubscriptionsJson(appUsers.id),
      })
      .from(appUsers)
      .where(and(eq(appUsers.id, input.user_id), eq(appUsers.applicationId, application.id)))
      .for('update', { of: appUsers });
    if (!user) return refusal('USER_NOT_FOUND', clientMessages.userNotFound);
    const held = parseHeldSubscriptions(user.held);
    const licensing = { licensedUntilMs: licensedUntilMs(held) };
    const standing = standingRefusal(application, { ...user, ...licensing }, now);
    if (standing) return standing;
    if (!hasRecentLogin(user.lastLogin, now)) {
      return sessionInvalid(clientMessages.sessionNeedsLogin);
    }
    // A floating plan's holder runs a session per seat: each login's token is proven by the
    // seat it leased (the user's last login is only the latest of them), and no session limit
    // ends another seat's session.
    const isFloating = seatTermsOf(held, now) !== null;
    const lease = isFloating ? await findLiveLease(tx, user.id, tokenHash, now) : null;
    if (!lease && !provesLogin(user, tokenHash, ctx.ipAddress, input.hwid ?? null)) {
      return sessionInvalid(clientMessages.sessionNotProven);
    }

    const [session] = await tx
      .insert(appUserSessions)
      .values({
        applicationId: application.id,
        appUserId: user.id,
        tokenHash,
        ipAddress: ctx.ipAddress,
        // The device of the login this start proves: releasing it ends this session.
        hwid: lease ? lease.hwid : user.lastLoginHwid,
        startedAt: now,
        lastHeartbeatAt: now,
      })
      .onConflictDoUpdate({
        target: [appUserSessions.applicationId, appUserSessions.tokenHash],
        set: { lastHeartbeatAt: sql`excluded.last_heartbeat_at` },
        // Only the same user's open session may be "started" again (a client retrying).
        setWhere: and(eq(appUserSessions.appUserId, user.id), isNull(appUserSessions.endedAt)),
      })
      .returning({ id: appUserSessions.id });
    if (!session) return sessionInvalid(clientMessages.sessionTokenInUse);

    const limit = application.maxSessionsPerUser;
    if (limit !== null && !isFloating) {
      // This session and the newest limit - 1 others stay open; the older ones end.
      const surplus = tx
        .select({ id: appUserSessions.id })
        .from(appUserSessions)
        .where(
          and(
            eq(appUserSessions.appUserId, user.id),
            isNull(appUserSessions.endedAt),
            ne(appUserSessions.id, session.id),
          ),
        )
        .orderBy(desc(appUserSessions.startedAt))
        .offset(limit - 1);
      replaced = await endSessionsWithDeliveries(
        tx,
        inArray(appUserSessions.id, surplus),
        'replaced',
        now,
      );
    }
    return {
      success: true,
      message: clientMessages.sessionStarted,
      code: 'OK',
      session_token: token,
    };
  });
  // Committed: the replaced sessions' heartbeats must now be refused, in every instance.
  if (replaced.length > 0) ctx.sessions.announceEnded(replaced, ctx.log);
  return response;
}

function hasRecentLogin(lastLogin: Date | null, now: Date): boolean {
  if (!lastLogin) return false;
  return now.getTime() - lastLogin.getTime() <= SESSION_START_WINDOW_SECONDS * 1000;
}

/**
 * A user id alone is no proof: it is not secret. Either the token is the one login issued
 * (only that login's answer carried it), or the start comes from where that login came from
 * (for clients that make their own token), with the same HWID when it sends one.
 */
function provesLogin(
  user: {
    lastLoginIp: string | null;
    lastLoginHwid: string | null;
    lastLoginTokenHash: string | null;
  },
  tokenHash: string,
  ipAddress: string,
  hwid: string | null,
): boolean {
  if (user.lastLoginTokenHash !== null && constantTimeEqual(user.lastLoginTokenHash, tokenHash)) {
    return true;
  }
  return (
    user.lastLoginIp !== null &&
    user.lastLoginIp === ipAddress &&
    (hwid === null || hwid === user.lastLoginHwid)
  );
}

/**
 * A session whose user is no longer in good standing (the owner paused, deactivated or
 * expired them, or the expiry passed) answers why, and ends if it had not already.
 */
async function refuseForStanding(
  ctx: SessionContext,
  session: FoundSession,
  refused: ClientOutcome,
  now: Date,
): Promise<ClientOutcome> {
  // Not announced to the session caches: a cached copy is refused for the same standing, and
  // only an owner's change (which drops the user's cached sessions) can restore it.
  if (!session.isEnded) await endSessions(ctx.db, { sessionId: session.id }, 'standing', now);
  return refused;
}

/**
 * The hot path: from memory when the session is cached (session-lookup.ts), else one indexed
 * read with the user's standing; its write is batched.
 */
async function heartbeat(ctx: SessionContext, token: string): Promise<ClientSessionResponse> {
  if (!SESSION_TOKEN_PATTERN.test(token)) return sessionInvalid(clientMessages.sessionUnknown);
  const session = await ctx.sessions.find(ctx.application.id, hashToken(token));
  if (!session) return sessionInvalid(clientMessages.sessionUnknown);
  if (!session.isApplicationActive) return appDisabled();
  const now = ctx.clock.now();
  const refused = standingRefusal(ctx.application, session, now);
  if (refused) return refuseForStanding(ctx, session, refused, now);
  if (session.isEnded) return sessionInvalid(clientMessages.sessionUnknown);
  ctx.activity.recordHeartbeat(session.id, now);
  return { success: true, message: clientMessages.heartbeat, code: 'OK', session_token: token };
}

async function endSession(ctx: SessionContext, token: string): Promise<ClientSessionResponse> {
  if (!SESSION_TOKEN_PATTERN.test(token)) return sessionInvalid(clientMessages.sessionUnknown);
  const session = await ctx.sessions.find(ctx.application.id, hashToken(token));
  if (!session) return sessionInvalid(clientMessages.sessionUnknown);
  if (!session.isApplicationActive) return appDisabled();
  const now = ctx.clock.now();
  const refused = standingRefusal(ctx.application, session, now);
  if (refused) return refuseForStanding(ctx, session, refused, now);
  if (session.isEnded) return sessionInvalid(clientMessages.sessionUnknown);
  // Ended by primary key only if still open: of two racing ends, one succeeds. Either way
  // it is ended now, and no cache may still hold it open.
  const ended = await endSessions(ctx.db, { sessionId: session.id }, 'client', now);
  ctx.sessions.announceEnded([{ id: session.id, applicationId: ctx.application.id }], ctx.log);
  if (ended.length === 0) return sessionInvalid(clientMessages.sessionUnknown);
  return { success: true, message: clientMessages.sessionEnded, code: 'OK', session_token: token };
}

/** The live seat lease a floating holder's login took with this token, if any. */
async function findLiveLease(
  tx: Database,
  appUserId: string,
  tokenHash: string,
  now: Date,
): Promise<{ hwid: string | null } | null> {
  const [lease] = await tx
    .select({ hwid: seatLeases.hwid })
    .from(seatLeases)
    .where(
      and(
        eq(seatLeases.appUserId, appUserId),
        eq(seatLeases.tokenHash, tokenHash),
        gt(seatLeases.expiresAt, now),
      ),
    );
  return lease ?? null;
}
