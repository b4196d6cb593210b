import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { rowsOf } from '../db/rows-of.ts';

/**
 * The outbox's writers. Acknowledged means written: deliveries are inserted by the very
 * statement that writes what caused them (the activity rows here, the session ends in
 * end-sessions.ts), so an event is either written with all its deliveries or not at all: a
 * `kill -9` between the two cannot happen. The webhooks module's dispatcher sends them.
 *
 * A webhook receives an event when it is active, belongs to the application's owner, is
 * scoped to that application or to all of them, and subscribes to the event.
 */
export const matchingWebhooks = (applicationAlias: SQL, eventExpression: SQL) => sql`
  join webhooks w
    on w.owner_account_id = ${applicationAlias}.owner_account_id
   and w.is_active
   and (w.application_id is null or w.application_id = ${applicationAlias}.id)
   and ${eventExpression} = any(w.events)`;

/** An instant as the payload's `timestamp` (ISO 8601, UTC, milliseconds, `Z`). */
export const isoTimestamp = (column: SQL) =>
  sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * Writes activity rows (a `select` yielding the activity_logs columns, in order) and, in the
 * same statement, one pending delivery per row per matching webhook, carrying the canonical
 * payload (webhookEventPayloadSchema). Answers how many deliveries were queued.
 */
export async function insertActivityWithDeliveries(
  executor: Pick<Database, 'execute'>,
  rowsToInsert: SQL,
): Promise<number> {
  const result = await executor.execute(sql`
    with inserted as (
      insert into activity_logs
        (application_id, app_user_id, username, event, success, ip_address, error_message,
         metadata, created_at)
      ${rowsToInsert}
      returning id, application_id, app_user_id, username, event, success, ip_address,
                error_message, metadata, created_at
    ),
    queued as (${deliveriesOfInsertedActivity(sql`inserted`)})
    select count(*)::int as queued from queued`);
  return countOf(result, 'queued');
}

/**
 * The deliveries of activity rows just inserted (`inserted`: a CTE returning the
 * activity_logs columns and `id`): one pending delivery per row per matching webhook,
 * carrying the canonical payload (webhookEventPayloadSchema). An INSERT … RETURNING 1, for
 * a CTE of the statement that inserted the rows; it holds no parameters.
 */
export const deliveriesOfInsertedActivity = (inserted: SQL) => sql`
      insert into webhook_deliveries (webhook_id, event, payload, activity_log_id)
      select w.id, i.event,
             jsonb_build_object(
               'type', i.event,
               'timestamp', ${isoTimestamp(sql`i.created_at`)},
               'data', jsonb_build_object(
                 'application', jsonb_build_object('id', a.id, 'name', a.name),
                 'user', jsonb_build_object('id', i.app_user_id, 'username', i.username),
                 'success', i.success,
                 'ipAddress', i.ip_address,
                 'hwid', i.metadata->>'hwid',
                 'version', i.metadata->>'version',
                 'message', i.error_message,
                 'activityLogId', i.id)),
             i.id
      from ${inserted} i
      join applications a on a.id = i.application_id
      ${matchingWebhooks(sql`a`, sql`i.event`)}
      order by i.id, w.id
      returning 1`;

function countOf(result: unknown, column: string): number {
  return Number(rowsOf<Record<string, unknown>>(result)[0]?.[column] ?? 0);
}
