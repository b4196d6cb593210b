import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { rowsOf } from '../../db/rows-of.ts';

/**
 * Queues the expiry reminders now due, for every application that sends them, and answers how
 * many. Due: a subscription (or the account itself) that ends within the application's
 * `expiry_reminder_days` and has not ended yet, of an end user in good standing with an
 * address who has not stopped reminders. One statement records each reminder in
 * `expiry_reminders` and queues the mails of the rows it inserted: the unique index on
 * (user, subject, end) lets any number of instances sweep at once and still send one
 * reminder per period. A period extended before the sweep is no longer due; one extended
 * after it is dropped by the worker before sending (expiryReminderIsStale).
 */
export async function queueExpiryReminders(db: Database): Promise<number> {
  const result = await db.execute(sql`
    with due as (
      select s.application_id, s.app_user_id, 'subscription:' || s.id as subject,
             s.expires_at as ends_at, p.name as plan, u.email
      from subscriptions s
      join applications a on a.id = s.application_id
      join app_users u on u.id = s.app_user_id
      join plans p on p.id = s.plan_id
      where a.expiry_reminder_days is not null and a.is_active
        and s.expires_at > now()
        and s.expires_at <= now() + make_interval(days => a.expiry_reminder_days)
        and u.email is not null and u.email <> '' and u.reminders_stopped_at is null
        and u.is_active and not u.is_paused
        and (u.expires_at is null or u.expires_at > now())
      union all
      select u.application_id, u.id, 'account', u.expires_at, '', u.email
      from app_users u
      join applications a on a.id = u.application_id
      where a.expiry_reminder_days is not null and a.is_active
        and u.expires_at > now()
        and u.expires_at <= now() + make_interval(days => a.expiry_reminder_days)
        and u.email is not null and u.email <> '' and u.reminders_stopped_at is null
        and u.is_active and not u.is_paused
    ),
    claimed as (
      insert into expiry_reminders (application_id, app_user_id, subject, ends_at)
      select application_id, app_user_id, subject, ends_at from due
      on conflict (app_user_id, subject, ends_at) do nothing
      returning application_id, app_user_id, subject, ends_at
    )
    insert into mail_messages (application_id, app_user_id, kind, recipient, values)
    select c.application_id, c.app_user_id, 'expiry_reminder', d.email,
           jsonb_build_object(
             'plan', d.plan,
             'expires_on', to_char(c.ends_at at time zone 'UTC', 'FMDD FMMonth YYYY'),
             'reminder_subject', c.subject,
             'reminder_ends_at', to_char(c.ends_at at time zone 'UTC',
                                         'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'))
    from claimed c
    join due d on d.app_user_id = c.app_user_id and d.subject = c.subject
    returning id`);
  return rowsOf(result).length;
}

/**
 * Whether a queued reminder no longer applies: what it announces was extended (or removed),
 * the user stopped reminders or the application stopped sending them. Checked just before
 * sending, so a renewal between the sweep and the send mails nothing.
 */
export async function expiryReminderIsStale(
  db: Database,
  message: { appUserId: string | null; values: Record<string, string> },
): Promise<boolean> {
  const subject = message.values.reminder_subject;
  const endsAt = message.values.reminder_ends_at;
  if (!message.appUserId || !subject || !endsAt) return true;
  const subscriptionId = subject.startsWith('subscription:')
    ? subject.slice('subscription:'.length)
    : null;
  const [row] = rowsOf<{ isDue: boolean }>(
    await db.execute(sql`
      select (
        case when ${subscriptionId}::uuid is null then u.expires_at
             else (select s.expires_at from subscriptions s
                   where s.id = ${subscriptionId}::uuid and s.app_user_id = u.id)
        end = ${endsAt}::timestamptz
        and u.reminders_stopped_at is null
        and a.expiry_reminder_days is not null
      ) as "isDue"
      from app_users u join applications a on a.id = u.application_id
      where u.id = ${message.appUserId}`),
  );
  return row?.isDue !== true;
}
