import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { ClientApiCode } from '@latchkey/contracts';
import type { Database, DatabaseConnection } from '../../db/client.ts';
import { namedValuesStatement, type BindValue } from '../../db/named-values-statement.ts';
import { rowsOf } from '../../db/rows-of.ts';
import type { ActivityRecord } from '../../events/activity-events.ts';
import type { InlineAnnouncement } from '../../events/application-events.ts';
import { inlineAnnouncementColumns } from '../../events/inline-announcement-columns.ts';
import { deliveriesOfInsertedActivity } from '../../outbox/webhook-outbox.ts';
import { licenseKeys, plans, subscriptions } from '../../db/schema/index.ts';
import {
  heldMeterUsageJson,
  stackedExpiry,
  stackedUpdatesWindow,
  parseHeldSubscriptions,
  type HeldSubscription,
  type RawHeldSubscription,
} from '../subscriptions/index.ts';
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

/** What a redemption statement is run with. */
interface RedemptionValues {
  applicationId: number;
  appUserId: string;
  digest: string;
  /** The time of the redemption, ISO 8601. */
  at: string;
  /** Of the redemption's activity row (the client call's statement only). */
  username: string | null;
  ipAddress: string | null;
  /** JSON text; the statement adds the key's id and plan name. */
  metadata: string;
  /** The change's announcement it sends if it redeems (the client call's statement only). */
  channel: string | null;
  payload: string | null;
  listenerName: string | null;
}

/** A value of the statement: a parameter now (in a transaction), or a placeholder (prepared). */
type Bind = BindValue<keyof RedemptionValues>;

/** The client call's redemption announces the user's change if, and only if, it redeems. */
const announcementOf = (bind: Bind) =>
  inlineAnnouncementColumns({
    channel: bind('channel'),
    payload: bind('payload'),
    listenerName: bind('listenerName'),
  });

/**
 * The redemption in one statement: the key's row is locked while still unused and not past its
 * redeem-by date, the user's subscription of its plan is extended (stackedExpiry, as
 * extendSubscription stacks), and the key is marked used with what it added, for a later ban.
 * Of two clients redeeming one key exactly one wins: the second waits on the row lock, then
 * finds it used and changes nothing. A key of another application is not found, exactly like
 * an unknown one. With `isClientCall` (POST /license/redeem, no transaction of its own) the
 * same statement writes the `license_redeemed` event with its webhook deliveries, announces the
 * user's change to the other instances (`inlineAnnouncementColumns`), and answers
 * the user's subscriptions as they now are (the statement's own snapshot predates its writes,
 * so the redeemed plan comes from the upsert's answer).
 */
function redemptionSql(bind: Bind, isClientCall: boolean): SQL {
  const at = sql`${bind('at')}::timestamptz`;
  const appUserId = sql`${bind('appUserId')}::uuid`;
  const applicationId = sql`${bind('applicationId')}::int`;
  const clientCallCtes = sql`, inserted as (
      insert into activity_logs
        (application_id, app_user_id, username, event, success, ip_address, error_message,
         metadata, created_at)
      select ${applicationId}, ${appUserId}, ${bind('username')}::text, 'license_redeemed', true,
             ${bind('ipAddress')}::text, null,
             ${bind('metadata')}::jsonb
               || jsonb_build_object('licenseId', r.id, 'plan', r.plan_name),
             ${at}
      from redeemed r
      returning id, application_id, app_user_id, username, event, success, ip_address,
                error_message, metadata, created_at
    ), queued as (${deliveriesOfInsertedActivity(sql`inserted`)}),
    held_now as (
      select p.name as plan, s.expires_at, p.entitlements, p.id as plan_id, p.max_devices,
             s.updates_until, s.updates_pending_days, p.meters
      from ${subscriptions} s join ${plans} p on p.id = s.plan_id
      where s.app_user_id = ${appUserId} and s.plan_id <> (select plan_id from candidate)
      union all
      select c.plan_name, g.expires_at, c.entitlements, c.plan_id, c.max_devices,
             g.updates_until, g.updates_pending_days, c.meters
      from grant_made g cross join candidate c
    )`;
  const held = sql`(select json_agg(json_build_object('plan', plan, 'expiresAt', expires_at,
                      'entitlements', entitlements, 'maxDevices', max_devices,
                      'updatesUntil', updates_until, 'updatesPendingDays', updates_pending_days,
                      'meters', meters,
                      'meterUsage', ${heldMeterUsageJson(sql`meters`, appUserId)})
                      order by lower(plan), plan_id)
                    from held_now)`;
  const window = stackedUpdatesWindow(
    { until: sql`s.updates_until`, pendingDays: sql`s.updates_pending_days` },
    sql`(select updates_for_days from candidate)`,
    at,
  );
  return sql`
    with candidate as (
      select k.id, k.plan_id, p.name as plan_name,
             -- What renewals added while the key was unused comes with it; lifetime stays.
             p.duration_days + k.extra_days as duration_days, p.entitlements, p.max_devices,
             p.updates_for_days + k.extra_updates_days as updates_for_days, p.updates_from,
             p.meters
      -- The key by its digest alone, through the unique index, then checked. With the state
      -- beside the digest, a plan made while the table's statistics said few keys were
      -- unused walked the (application, state) index instead: every unused key, ~9 ms a
      -- redemption at 10,000 of them. OFFSET 0 keeps the lookup a query of its own.
      from (
        select * from ${licenseKeys}
        where application_id = ${applicationId} and key_digest = ${bind('digest')}::text
        offset 0
      ) k join ${plans} p on p.id = k.plan_id
      where k.state = 'unused' and (k.redeem_by is null or k.redeem_by > ${at})
      for update of k
    ), grant_made as (
      insert into ${subscriptions} as s
        (application_id, app_user_id, plan_id, expires_at, updates_until, updates_pending_days,
         created_at, updated_at)
      select ${applicationId}, ${appUserId}, c.plan_id,
             ${at} + make_interval(days => c.duration_days),
             case when c.updates_from = 'redemption'
               then ${at} + make_interval(days => c.updates_for_days) end,
             case when c.updates_from = 'activation' then c.updates_for_days end,
             ${at}, ${at}
      from candidate c
      on conflict (app_user_id, plan_id) do update
      set expires_at = ${stackedExpiry(sql`s.expires_at`, sql`(select duration_days from candidate)`, at)},
          updates_until = ${window.updatesUntil},
          updates_pending_days = ${window.updatesPendingDays},
          updated_at = ${at}
      returning s.id, s.expires_at, s.updates_until, s.updates_pending_days
    ), redeemed as (
      update ${licenseKeys} k
      set state = 'used', used_by_user_id = ${appUserId}, used_at = ${at},
          subscription_id = (select id from grant_made), granted_days = c.duration_days,
          granted_lifetime = c.duration_days is null
      from candidate c
      where k.id = c.id
      returning k.id, c.plan_id, c.plan_name
    )${isClientCall ? clientCallCtes : sql``}
    select id, plan_id as "planId", plan_name as "planName",
           ${isClientCall ? sql`(select count(*) from queued)::int` : sql`0`} as queued,
           ${isClientCall ? held : sql`null`} as held
           ${isClientCall ? sql`, ${announcementOf(bind)}` : sql``}
    from redeemed`;
}

interface RedeemedRow {
  id: string;
  planId: string;
  planName: string;
  queued: number;
  held: RawHeldSubscription[] | string | null;
  /** Null when the statement announced nothing (no instance shares changes). */
  otherListeners?: number | null;
}

const toRedemption = (row: RedeemedRow): Redemption => ({
  isRedeemed: true,
  licenseId: row.id,
  planId: row.planId,
  planName: row.planName,
  queuedDeliveries: row.queued,
});

/** The key's digest, or null for a text no mask makes (no lookup: LICENSE_INVALID). */
function digestOf(key: string, serverSecret: string): string | null {
  const text = key.trim();
  return text === '' || text.length > MAX_KEY_LENGTH ? null : licenseKeyDigest(text, serverSecret);
}

/**
 * Redeems a key for an end user inside the caller's transaction (a registration with a key, a
 * key's first login), which writes the events itself.
 */
export async function redeemLicenseKey(
  tx: Database,
  input: {
    applicationId: number;
    appUserId: string;
    key: string;
    now: Date;
    serverSecret: string;
  },
): Promise<Redemption> {
  const digest = digestOf(input.key, input.serverSecret);
  if (digest === null) return { isRedeemed: false, code: 'LICENSE_INVALID', licenseId: null };
  const values: RedemptionValues = {
    applicationId: input.applicationId,
    appUserId: input.appUserId,
    digest,
    at: input.now.toISOString(),
    username: null,
    ipAddress: null,
    metadata: '{}',
    channel: null,
    payload: null,
    listenerName: null,
  };
  const result = await tx.execute(redemptionSql((name) => sql`${values[name]}`, false));
  const [claimed] = rowsOf<RedeemedRow>(result);
  return claimed ? toRedemption(claimed) : refusalFor(tx, input.applicationId, digest, input.now);
}

/**
 * POST /license/redeem's statement, prepared once per connection (planning it cost PostgreSQL
 * more than running it): the redemption, its event and webhook deliveries, and the user's
 * subscriptions after it, in one round trip with no transaction around it.
 */
export function createClientRedemption(connection: DatabaseConnection) {
  return async function redeemForClient(input: {
    applicationId: number;
    appUserId: string;
    key: string;
    now: Date;
    serverSecret: string;
    /** The `license_redeemed` row's own fields (the statement adds the key and plan). */
    event: Pick<ActivityRecord, 'username' | 'ipAddress' | 'metadata'>;
    /** The user's change, announced to other instances by the statement if it redeems. */
    announcement: Pick<InlineAnnouncement, 'channel' | 'payload' | 'listenerName'> | null;
  }): Promise<{
    redemption: Redemption;
    held: HeldSubscription[];
    /** Counted by the statement that announced the change; null when it announced nothing. */
    otherListeners: number | null;
  }> {
    const digest = digestOf(input.key, input.serverSecret);
    if (digest === null) {
      return {
        redemption: { isRedeemed: false, code: 'LICENSE_INVALID', licenseId: null },
        held: [],
        otherListeners: null,
      };
    }
    const values: RedemptionValues = {
      applicationId: input.applicationId,
      appUserId: input.appUserId,
      digest,
      at: input.now.toISOString(),
      username: input.event.username,
      ipAddress: input.event.ipAddress,
      metadata: JSON.stringify(input.event.metadata),
      channel: input.announcement?.channel ?? null,
      payload: input.announcement?.payload ?? null,
      listenerName: input.announcement?.listenerName ?? null,
    };
    const { rows } = await clientRedemptionStatement.run(connection, values);
    const claimed = rows[0] as unknown as RedeemedRow | undefined;
    if (!claimed) {
      return {
        redemption: await refusalFor(connection.db, input.applicationId, digest, input.now),
        held: [],
        otherListeners: null,
      };
    }
    return {
      redemption: toRedemption(claimed),
      held: parseHeldSubscriptions(claimed.held),
      otherListeners: claimed.otherListeners ?? null,
    };
  };
}
export type ClientRedemption = ReturnType<typeof createClientRedemption>;

/** POST /license/redeem's statement: prepared by name, its values the redemption's. */
export const clientRedemptionStatement = namedValuesStatement<RedemptionValues>(
  'client_api_license_redeem',
  (bind) => redemptionSql(bind, true),
);

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
