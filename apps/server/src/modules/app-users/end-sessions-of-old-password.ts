import { and, eq, ne } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { appUserSessions, portalSessions } from '../../db/schema/index.ts';
import { endSessionsWithDeliveries } from '../../outbox/end-sessions.ts';

/**
 * A new password signs the end user out everywhere else, inside the transaction that sets it:
 * whoever held the old one (a stolen password, a shared machine) keeps no session it opened.
 * Client sessions end with their `session_end` webhook deliveries queued; portal sessions are
 * deleted, except `keepPortalSessionId`, the one that made the change. The caller announces
 * the user's change after commit, so every instance's session cache drops them.
 */
export async function endSessionsOfOldPassword(
  tx: Database,
  input: { appUserId: string; keepPortalSessionId?: string; now: Date },
): Promise<void> {
  await endSessionsWithDeliveries(
    tx,
    eq(appUserSessions.appUserId, input.appUserId),
    'password_changed',
    input.now,
  );
  await tx
    .delete(portalSessions)
    .where(
      and(
        eq(portalSessions.appUserId, input.appUserId),
        input.keepPortalSessionId === undefined
          ? undefined
          : ne(portalSessions.id, input.keepPortalSessionId),
      ),
    );
}
