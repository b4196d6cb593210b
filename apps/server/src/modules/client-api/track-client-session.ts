import { and, eq, isNull, sql } from 'drizzle-orm';
import {
  SESSION_START_WINDOW_SECONDS,
  SESSION_TOKEN_PATTERN,
  type ClientSessionRequest,
  type ClientSessionResponse,
} from '@latchkey/contracts';
import { appUserSessions } from '../../db/schema/index.ts';
import { hashToken } from '../../lib/tokens.ts';
import type { ClientContext } from './client-context.ts';
import {
  appDisabled,
  clientMessages,
  refusal,
  standingRefusal,
  UUID_PATTERN,
} from './client-outcomes.ts';
import type { SessionLookup } from './session-lookup.ts';
import type { UserStanding, UserStandingLookup } from './user-standing-lookup.ts';

type SessionContext = ClientContext & {
  userStanding: UserStandingLookup;
  sessions: SessionLookup;
};

const sessionInvalid = (message: string) => refusal('SESSION_INVALID', message);

/**
 * POST /api/v1/session/track. Sessions are kept by the SHA-256 of their token only.
 * - start: `user_id` and the client's `sess_…` token (or the one login issued), for a user
 *   of this application in good standing who logged in within the last 10 minutes. Starting
 *   again with the same token for the same user is a harmless retry; any other reuse of a
 *   token is refused.
 * - heartbeat, end: the token alone; only a started, unended session of this application.
 *   A heartbeat after a silence of more than 90 s makes a session active again; an ended
 *   session stays ended.
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
      return startSession(ctx, input.user_id, input.session_token);
    case 'heartbeat':
      return heartbeat(ctx, input.session_token);
    case 'end':
      return endSession(ctx, input.session_token);
  }
}

async function startSession(
  ctx: SessionContext,
  userId: string,
  token: string,
): Promise<ClientSessionResponse> {
  if (!SESSION_TOKEN_PATTERN.test(token)) {
    return sessionInvalid(clientMessages.sessionTokenMalformed);
  }
  const user = UUID_PATTERN.test(userId) ? await ctx.userStanding.load(userId) : undefined;
  if (!user || user.applicationId !== ctx.application.id) {
    return refusal('USER_NOT_FOUND', clientMessages.userNotFound);
  }
  const now = ctx.clock.now();
  const standing = standingRefusal(ctx.application, user, now);
  if (standing) return standing;
  if (!hasRecentLogin(user, now)) return sessionInvalid(clientMessages.sessionNeedsLogin);

  const [session] = await ctx.db
    .insert(appUserSessions)
    .values({
      applicationId: ctx.application.id,
      appUserId: user.id,
      tokenHash: hashToken(token),
      ipAddress: ctx.ipAddress,
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
  return {
    success: true,
    message: clientMessages.sessionStarted,
    code: 'OK',
    session_token: token,
  };
}

function hasRecentLogin(user: UserStanding, now: Date): boolean {
  if (!user.lastLogin) return false;
  const age = now.getTime() - user.lastLogin.getTime();
  return age <= SESSION_START_WINDOW_SECONDS * 1000;
}

/** The hot path: one indexed read; the heartbeat's write is batched by the recorder. */
async function heartbeat(ctx: SessionContext, token: string): Promise<ClientSessionResponse> {
  if (!SESSION_TOKEN_PATTERN.test(token)) return sessionInvalid(clientMessages.sessionUnknown);
  const sessionId = await ctx.sessions.findOpen(ctx.application.id, hashToken(token));
  if (!sessionId) return sessionInvalid(clientMessages.sessionUnknown);
  ctx.activity.recordHeartbeat(sessionId, ctx.clock.now());
  return { success: true, message: clientMessages.heartbeat, code: 'OK', session_token: token };
}

async function endSession(ctx: SessionContext, token: string): Promise<ClientSessionResponse> {
  if (!SESSION_TOKEN_PATTERN.test(token)) return sessionInvalid(clientMessages.sessionUnknown);
  const [ended] = await ctx.db
    .update(appUserSessions)
    .set({ endedAt: ctx.clock.now() })
    .where(
      and(
        // Found by its token, without "ended_at is null" (session-lookup.ts says why).
        eq(
          appUserSessions.id,
          sql`(${ctx.db
            .select({ id: appUserSessions.id })
            .from(appUserSessions)
            .where(
              and(
                eq(appUserSessions.tokenHash, hashToken(token)),
                eq(appUserSessions.applicationId, ctx.application.id),
              ),
            )})`,
        ),
        isNull(appUserSessions.endedAt),
      ),
    )
    .returning({ id: appUserSessions.id });
  if (!ended) return sessionInvalid(clientMessages.sessionUnknown);
  return { success: true, message: clientMessages.sessionEnded, code: 'OK', session_token: token };
}
