import { and, eq, sql } from 'drizzle-orm';
import { SESSION_TOKEN_PATTERN } from '@latchkey/contracts';
import type { Database } from '../../db/client.ts';
import { appUserSessions, appUsers, emailVerifiedColumn } from '../../db/schema/index.ts';
import { hashToken } from '../../lib/tokens.ts';
import {
  licensedUntilMs,
  parseHeldSubscriptions,
  heldSubscriptionsJson,
  type HeldSubscription,
} from '../subscriptions/index.ts';
import type { ClientContext } from './client-context.ts';
import { clientMessages, refusal, standingRefusal, type ClientOutcome } from './client-outcomes.ts';

/** A live session's holder, as the calls that need one (checkout, variables) use them. */
export interface LiveSession {
  userId: string;
  username: string;
  /** The HWID its login sent (the machine the program runs on), or null. */
  hwid: string | null;
  expiresAt: Date | null;
  held: HeldSubscription[];
}

/** The session's row and its holder's standing, by the token's hash, within one application. */
function prepareSessionLookup(db: Database) {
  return db
    .select({
      isEnded: sql<boolean>`${appUserSessions.endedAt} is not null`,
      hwid: appUserSessions.hwid,
      userId: appUsers.id,
      username: appUsers.username,
      isActive: appUsers.isActive,
      isPaused: appUsers.isPaused,
      expiresAt: appUsers.expiresAt,
      isEmailVerified: emailVerifiedColumn(),
      held: heldSubscriptionsJson(appUserSessions.appUserId),
    })
    .from(appUserSessions)
    .innerJoin(appUsers, eq(appUsers.id, appUserSessions.appUserId))
    .where(
      and(
        eq(appUserSessions.tokenHash, sql.placeholder('tokenHash')),
        eq(appUserSessions.applicationId, sql.placeholder('applicationId')),
      ),
    )
    .prepare('client_api_live_session');
}

/**
 * The lookup prepared once per database (an instance has one; tests start several): planning
 * it cost PostgreSQL four times what running it does (240 against 55 µs a call, measured with
 * `pg_stat_statements.track_planning`).
 */
const sessionLookups = new WeakMap<Database, ReturnType<typeof prepareSessionLookup>>();

function sessionLookupOf(db: Database) {
  let lookup = sessionLookups.get(db);
  if (!lookup) {
    lookup = prepareSessionLookup(db);
    sessionLookups.set(db, lookup);
  }
  return lookup;
}

/**
 * The one rule of the calls that need a live session (license/checkout, var,
 * user-var): started with session/track start and not ended, in this application, its user
 * in good standing now. Refused as a heartbeat would be: SESSION_INVALID, or the standing's
 * own code (ACCOUNT_DISABLED, ACCOUNT_EXPIRED, NO_ACTIVE_SUBSCRIPTION) first, so the client
 * learns why an owner's pause ended its session. One indexed read, never cached: a paused
 * user's next call is refused on every instance at once.
 */
export async function loadLiveSession(
  ctx: Pick<ClientContext, 'application' | 'db' | 'clock'>,
  sessionToken: string | null,
): Promise<{ session: LiveSession; refused?: never } | { refused: ClientOutcome }> {
  const sessionInvalid = { refused: refusal('SESSION_INVALID', clientMessages.sessionUnknown) };
  if (sessionToken === null || !SESSION_TOKEN_PATTERN.test(sessionToken)) return sessionInvalid;
  const { application } = ctx;
  const [row] = await sessionLookupOf(ctx.db).execute({
    tokenHash: hashToken(sessionToken),
    applicationId: application.id,
  });
  if (!row) return sessionInvalid;
  const held = parseHeldSubscriptions(row.held);
  const refused = standingRefusal(
    application,
    { ...row, licensedUntilMs: licensedUntilMs(held) },
    ctx.clock.now(),
  );
  if (refused) return { refused };
  if (row.isEnded) return sessionInvalid;
  return {
    session: {
      userId: row.userId,
      username: row.username,
      hwid: row.hwid,
      expiresAt: row.expiresAt,
      held,
    },
  };
}
