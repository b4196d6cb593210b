import { eq, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { rowsOf } from '../db/rows-of.ts';
import { appUserSessions, type SessionEndReason } from '../db/schema/index.ts';
import { isoTimestamp, matchingWebhooks } from './webhook-outbox.ts';

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

/** A session a statement ended: what caches of open sessions must forget. */
export interface EndedSession {
  id: string;
  applicationId: number;
}

/**
 * Ends the open sessions matching `condition` (on app_user_sessions), saying why, and queues
 * a `session_end` delivery for each in the same statement. Answers the sessions it ended.
 * Session ends write no activity row: the activity log keeps the spec's ten events.
 */
export async function endSessionsWithDeliveries(
  executor: Pick<Database, 'execute'>,
  condition: SQL,
  reason: SessionEndReason,
  now: Date,
): Promise<EndedSession[]> {
  const result = await executor.execute(sql`
    with ended as (
      update app_user_sessions
      set ended_at = ${now.toISOString()}::timestamptz, end_reason = ${reason}
      where ${condition} and app_user_sessions.ended_at is null
      returning id, application_id, app_user_id, ip_address, ended_at, end_reason, token_hash
    ),
    -- A floating plan's seat is free the moment its session ends, unless it is borrowed.
    freed as (
      delete from seat_leases l using ended e
      where l.app_user_id = e.app_user_id and l.token_hash = e.token_hash
        and l.borrowed_until is null
      returning 1
    ),
    queued as (
      insert into webhook_deliveries (webhook_id, event, payload)
      select w.id, 'session_end',
             jsonb_build_object(
               'type', 'session_end',
               'timestamp', ${isoTimestamp(sql`e.ended_at`)},
               'data', jsonb_build_object(
                 'application', jsonb_build_object('id', a.id, 'name', a.name),
                 'user', jsonb_build_object('id', e.app_user_id, 'username', u.username),
                 'success', true,
                 'ipAddress', e.ip_address,
                 'hwid', null,
                 'version', null,
                 'message', null,
                 'activityLogId', null,
                 'sessionEndReason', e.end_reason))
      from ended e
      join applications a on a.id = e.application_id
      left join app_users u on u.id = e.app_user_id
      ${matchingWebhooks(sql`a`, sql`'session_end'`)}
      order by e.id, w.id
      returning 1
    )
    -- The queued and freed CTEs run whether or not they are read (data-modifying CTEs always do).
    select id, application_id as "applicationId" from ended`);
  return rowsOf<EndedSession>(result);
}
