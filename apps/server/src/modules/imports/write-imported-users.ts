import { sql } from 'drizzle-orm';
import { blacklistLimits } from '@latchkey/contracts';
import type { Database } from '../../db/client.ts';
import { rowsOf } from '../../db/rows-of.ts';
import type { ImportRecord } from '../../db/schema/index.ts';
import type { KeyAuthUserRow } from './keyauth-export.ts';
import { subscriptionLevel } from './find-import-conflicts.ts';

/**
 * The password hash of a user KeyAuth had none for (or only a plain password, which is never
 * kept): no password verifies against it, so the owner sets one before the user can log in.
 */
export const UNUSABLE_PASSWORD_HASH = '!imported-without-password';

/**
 * One batch of users in one statement: the users (ON CONFLICT DO NOTHING, so a username the
 * application has meanwhile is skipped, never overwritten), each created user's HWID as its
 * first device with the summary columns (app_users.hwid, device_count) as modules/devices/
 * keeps them, and its subscriptions. Answers how many users it created.
 *
 * A user KeyAuth banned (`users.banned` holds the reason) is created disabled, so login
 * refuses it (ACCOUNT_DISABLED), and its username is blacklisted for the application with
 * the reason: the blacklist is where Latchkey keeps why someone is blocked, listed and
 * searched by the owner, and KeyAuth's own ban is a blacklisting (it bans the user's HWID and
 * IP too, which come with the blacklist's export). Enabling the user again is then two steps,
 * the user and the entry, as unbanning is in KeyAuth.
 *
 * The rows travel as two jsonb documents, not as drizzle's multi-row VALUES: building and
 * binding 12,000 parameters a batch cost more CPU than the database's own work (BENCHMARKS.md,
 * "KeyAuth import"), and binding 100,000 users one by one through setUserHwid would take
 * minutes.
 */
export async function writeImportedUsers(
  tx: Database,
  record: ImportRecord,
  rows: readonly KeyAuthUserRow[],
  now: Date,
): Promise<number> {
  const users = rows.map((row) => ({
    username: row.username,
    email: row.email,
    // bcrypt stays until the user's first login replaces it with argon2id.
    password_hash: row.passwordHash ?? UNUSABLE_PASSWORD_HASH,
    is_active: !row.isBanned,
    expires_at: latestExpiry(row, now)?.toISOString() ?? null,
    hwid: row.hwid,
    last_login: row.lastLoginAt?.toISOString() ?? null,
    created_at: (row.createdAt ?? now).toISOString(),
  }));
  const bans = rows.flatMap((row) =>
    row.isBanned ? [{ username: row.username, reason: banReasonOf(row.banReason) }] : [],
  );
  const grants = rows.flatMap((row) =>
    grantedSubscriptions(row, record.levelPlans, now).map((grant) => ({
      username: row.username,
      plan_id: grant.planId,
      expires_at: grant.expiresAt?.toISOString() ?? null,
    })),
  );
  const at = now.toISOString();
  const result = await tx.execute(sql`
    with inserted as (
      insert into app_users (application_id, username, email, password_hash, is_active,
                             expires_at, hwid, device_count, last_login, created_at, updated_at)
      select ${record.applicationId}, r.username, r.email, r.password_hash, r.is_active,
             r.expires_at, r.hwid, case when r.hwid is null then 0 else 1 end, r.last_login,
             r.created_at, ${at}::timestamptz
      from jsonb_to_recordset(${JSON.stringify(users)}::jsonb) as r(
        username text, email text, password_hash text, is_active boolean,
        expires_at timestamptz, hwid text, last_login timestamptz, created_at timestamptz)
      on conflict do nothing
      returning id, username, hwid
    ),
    devices as (
      insert into app_user_devices (application_id, app_user_id, hwid, first_seen_at)
      select ${record.applicationId}, i.id, i.hwid, ${at}::timestamptz
      from inserted i
      where i.hwid is not null
    ),
    granted as (
      insert into subscriptions (application_id, app_user_id, plan_id, expires_at,
                                 created_at, updated_at)
      select ${record.applicationId}, i.id, g.plan_id, g.expires_at,
             ${at}::timestamptz, ${at}::timestamptz
      from jsonb_to_recordset(${JSON.stringify(grants)}::jsonb) as g(
        username text, plan_id uuid, expires_at timestamptz)
      join inserted i on i.username = g.username
    ),
    banned as (
      insert into blacklist_entries (owner_account_id, application_id, type, value, reason,
                                     is_active, created_at)
      select ${record.ownerAccountId}::uuid, ${record.applicationId}, 'username', i.username,
             b.reason, true, ${at}::timestamptz
      from jsonb_to_recordset(${JSON.stringify(bans)}::jsonb) as b(username text, reason text)
      join inserted i on i.username = b.username
      where not exists (
        select 1 from blacklist_entries e
        where e.owner_account_id = ${record.ownerAccountId}::uuid
          and e.type = 'username'
          and lower(e.value) = lower(i.username)
          and e.is_active
          and (e.application_id is null or e.application_id = ${record.applicationId}))
    )
    select count(*)::int as created from inserted`);
  return rowsOf<{ created: number }>(result)[0]?.created ?? 0;
}

/** KeyAuth's reason is varchar(99); the prefix says where the entry came from. */
function banReasonOf(reason: string | null): string {
  return `Banned in KeyAuth: ${reason ?? 'no reason given'}`.slice(0, blacklistLimits.reason);
}

/** A paused KeyAuth subscription keeps the time it had left, counted from the import. */
function expiryOf(subscription: KeyAuthUserRow['subscriptions'][number], now: Date): Date | null {
  if (subscription.expiresAt !== null) return subscription.expiresAt;
  if (subscription.pausedSecondsLeft !== null) {
    return new Date(now.getTime() + subscription.pausedSecondsLeft * 1000);
  }
  return null;
}

function latestExpiry(row: KeyAuthUserRow, now: Date): Date | null {
  let latest: Date | null = null;
  for (const subscription of row.subscriptions) {
    const expiry = expiryOf(subscription, now);
    if (expiry !== null && (latest === null || expiry > latest)) latest = expiry;
  }
  return latest;
}

/** One subscription per plan (the table's unique pair): the latest expiry of its levels. */
function grantedSubscriptions(
  row: KeyAuthUserRow,
  levelPlans: Record<string, string>,
  now: Date,
): { planId: string; expiresAt: Date | null }[] {
  const byPlan = new Map<string, Date | null>();
  for (const subscription of row.subscriptions) {
    const planId = levelPlans[subscriptionLevel(subscription)];
    if (planId === undefined) continue;
    const expiry = expiryOf(subscription, now);
    const held = byPlan.get(planId);
    if (held === undefined || (held !== null && expiry !== null && expiry > held)) {
      byPlan.set(planId, expiry);
    }
  }
  return [...byPlan].map(([planId, expiresAt]) => ({ planId, expiresAt }));
}
