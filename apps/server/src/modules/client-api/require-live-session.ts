import { and, eq, sql } from 'drizzle-orm';
import { SESSION_TOKEN_PATTERN } from '@latchkey/contracts';
import { appUserSessions, appUsers } from '../../db/schema/index.ts';
import { hashToken } from '../../lib/tokens.ts';
import {
  heldSubscriptionsJson,
  licensedUntilMs,
  parseHeldSubscriptions,
} from '../subscriptions/held-subscriptions.ts';
import type { ClientContext } from './client-context.ts';
import { clientMessages, refusal, standingRefusal, type ClientOutcome } from './client-outcomes.ts';

/**
 * The session rules of license/checkout, for the calls a live session unlocks (a file's
 * download URL): a token the session/track start made for this application, not ended, its
 * user in good standing now. One indexed read. Answers the refusal a heartbeat would give
 * (standing first: the owner's pause ended the session, and the client learns why), or null.
 */
export async function requireLiveSession(
  ctx: ClientContext,
  sessionToken: string | null,
): Promise<ClientOutcome | null> {
  const sessionInvalid = () => refusal('SESSION_INVALID', clientMessages.sessionUnknown);
  if (sessionToken === null || !SESSION_TOKEN_PATTERN.test(sessionToken)) return sessionInvalid();
  const [session] = await ctx.db
    .select({
      isEnded: sql<boolean>`${appUserSessions.endedAt} is not null`,
      isActive: appUsers.isActive,
      isPaused: appUsers.isPaused,
      expiresAt: appUsers.expiresAt,
      held: heldSubscriptionsJson(appUserSessions.appUserId),
    })
    .from(appUserSessions)
    .innerJoin(appUsers, eq(appUsers.id, appUserSessions.appUserId))
    .where(
      and(
        eq(appUserSessions.tokenHash, hashToken(sessionToken)),
        eq(appUserSessions.applicationId, ctx.application.id),
      ),
    );
  if (!session) return sessionInvalid();
  const refused = standingRefusal(
    ctx.application,
    { ...session, licensedUntilMs: licensedUntilMs(parseHeldSubscriptions(session.held)) },
    ctx.clock.now(),
  );
  if (refused) return refused;
  return session.isEnded ? sessionInvalid() : null;
}
