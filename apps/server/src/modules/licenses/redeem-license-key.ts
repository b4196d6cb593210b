import { and, eq, sql } from 'drizzle-orm';
import type { ClientApiCode } from '@latchkey/contracts';
import type { Database } from '../../db/client.ts';
import { rowsOf } from '../../db/rows-of.ts';
import type { ActivityRecord } from '../activity/activity-events.ts';
import { deliveriesOfInsertedActivity } from '../webhooks/webhook-outbox.ts';
import { licenseKeys, plans, subscriptions } from '../../db/schema/index.ts';
import { stackedExpiry } from '../subscriptions/extend-subscription.ts';
import { licenseKeyDigest } from './license-key-secrets.ts';

export type LicenseRefusalCode = Extract<
  ClientApiCode,
  'LICENSE_INVALID' | 'LICENSE_USED' | 'LICENSE_BANNED' | 'LICENSE_EXPIRED'
>;

export type Redemption =
  | {
      isRedeemed: true;
      licenseId: string;
      planId: string;
      planName: string;
      /** Webhook deliveries queued with the redemption's event (0 without an `event`). */
      queuedDeliveries: number;
    }
  | { isRedeemed: false; code: LicenseRefusalCode; licenseId: string | null };

/** Longest key text looked up; a longer one cannot be a key any mask makes. */
const MAX_KEY_LENGTH = 128;

/**
 * Redeems a key of `applicationId` for an end user, inside the caller's transaction, in one
 * statement: the key's row is locked while still unused and not past its redeem-by date, the
 * user's subscription of its plan is extended (stackedExpiry, as extendSubscription stacks),
 * and the key is marked used with what it added, for a later ban. Of two clients redeeming one key exactly one wins: the
 * second waits on the row lock, then finds it used and changes nothing. A key of another
 * application is not found here, exactly like an unknown one. (Four statements before: the
 * claim, the plan, the upsert and the key's grant cost a redemption 4-5 ms of round trips.)
 */
export async function redeemLicenseKey(
  tx: Database,
  input: {
    applicationId: number;
    appUserId: string;
    key: string;
    now: Date;
    serverSecret: string;
    /**
     * The redemption's activity row, written by the same statement with its webhook
     * deliveries (its metadata gains the key's id and plan name). A caller whose transaction
     * holds nothing else needs no transaction then: the statement is one.
     */
    event?: ActivityRecord;
  },
): Promise<Redemption> {
  const { now, applicationId, appUserId, event } = input;
  const text = input.key.trim();
  if (text === '' || text.length > MAX_KEY_LENGTH) {
    return { isRedeemed: false, code: 'LICENSE_INVALID', licenseId: null };
  }
  const digest = licenseKeyDigest(text, input.serverSecret);
  const at = sql`${now.toISOString()}::timestamptz`;
  const result = await tx.execute(sql`
    with candidate as (
      select k.id, k.plan_id, p.name as plan_name, p.duration_days
      from ${licenseKeys} k join ${plans} p on p.id = k.plan_id
      where k.application_id = ${applicationId} and k.key_digest = ${digest}
        and k.state = 'unused' and (k.redeem_by is null or k.redeem_by > ${at})
      for update of k
    ), grant_made as (
      insert into ${subscriptions} as s
        (application_id, app_user_id, plan_id, expires_at, created_at, updated_at)
      select ${applicationId}, ${appUserId}::uuid, c.plan_id,
             ${at} + make_interval(days => c.duration_days), ${at}, ${at}
      from candidate c
      on conflict (app_user_id, plan_id) do update
      set expires_at = ${stackedExpiry(sql`s.expires_at`, sql`(select duration_days from candidate)`, at)},
          updated_at = ${at}
      returning s.id
    )
    , redeemed as (
      update ${licenseKeys} k
      set state = 'used', used_by_user_id = ${appUserId}::uuid, used_at = ${at},
          subscription_id = (select id from grant_made), granted_days = c.duration_days,
          granted_lifetime = c.duration_days is null
      from candidate c
      where k.id = c.id
      returning k.id, c.plan_id, c.plan_name
    )${event ? redemptionEventCtes(event) : sql``}
    select id, plan_id as "planId", plan_name as "planName",
           ${event ? sql`(select count(*) from queued)::int` : sql`0`} as queued
    from redeemed`);
  const [claimed] = rowsOf<{ id: string; planId: string; planName: string; queued: number }>(
    result,
  );
  if (!claimed) return refusalFor(tx, applicationId, digest, now);
  return {
    isRedeemed: true,
    licenseId: claimed.id,
    planId: claimed.planId,
    planName: claimed.planName,
    queuedDeliveries: claimed.queued,
  };
}

/** Inserts the redemption's activity row and its deliveries, after the `redeemed` CTE. */
function redemptionEventCtes(event: ActivityRecord) {
  return sql`, inserted as (
      insert into activity_logs
        (application_id, app_user_id, username, event, success, ip_address, error_message,
         metadata, created_at)
      select ${event.applicationId}, ${event.appUserId}::uuid, ${event.username}, ${event.event},
             ${event.success}, ${event.ipAddress}, ${event.errorMessage},
             ${JSON.stringify(event.metadata)}::jsonb
               || jsonb_build_object('licenseId', r.id, 'plan', r.plan_name),
             ${event.createdAt.toISOString()}::timestamptz
      from redeemed r
      returning id, application_id, app_user_id, username, event, success, ip_address,
                error_message, metadata, created_at
    ), queued as (${deliveriesOfInsertedActivity(sql`inserted`)})`;
}

/** Why a key could not be redeemed: the row as it is now (locked by nothing: a read). */
async function refusalFor(
  tx: Database,
  applicationId: number,
  digest: string,
  now: Date,
): Promise<Redemption> {
  const [key] = await tx
    .select({ id: licenseKeys.id, state: licenseKeys.state, redeemBy: licenseKeys.redeemBy })
    .from(licenseKeys)
    .where(and(eq(licenseKeys.applicationId, applicationId), eq(licenseKeys.keyDigest, digest)));
  if (!key) return { isRedeemed: false, code: 'LICENSE_INVALID', licenseId: null };
  const code: LicenseRefusalCode =
    key.state === 'banned'
      ? 'LICENSE_BANNED'
      : key.state === 'used'
        ? 'LICENSE_USED'
        : key.redeemBy && key.redeemBy <= now
          ? 'LICENSE_EXPIRED'
          : 'LICENSE_INVALID';
  return { isRedeemed: false, code, licenseId: key.id };
}
