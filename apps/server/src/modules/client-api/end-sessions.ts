import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { appUserSessions, type SessionEndReason } from '../../db/schema/index.ts';
import { endSessionsWithDeliveries, type EndedSession } from '../webhooks/webhook-outbox.ts';

/** Which open sessions to end: one, all of an end user's, or all of an application's. */
export type SessionsToEnd =
  { sessionId: string } | { appUserId: string } | { applicationId: number };

/**
 * Ends the open sessions in scope, saying why; ended sessions keep their first reason. Pass
 * the transaction of the change that causes it, so the change and its effect land together.
 * The same statement queues the `session_end` webhook deliveries (the outbox). Returns the
 * sessions it ended.
 */
export async function endSessions(
  db: Database,
  scope: SessionsToEnd,
  reason: SessionEndReason,
  now: Date,
): Promise<EndedSession[]> {
  const inScope =
    'sessionId' in scope
      ? eq(appUserSessions.id, scope.sessionId)
      : 'appUserId' in scope
        ? eq(appUserSessions.appUserId, scope.appUserId)
        : eq(appUserSessions.applicationId, scope.applicationId);
  return endSessionsWithDeliveries(db, inScope, reason, now);
}
