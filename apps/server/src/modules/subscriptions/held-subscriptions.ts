import { getTableName, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { appUsers, plans, subscriptions } from '../../db/schema/index.ts';
import type { ClientMeter, PlanMeter } from '@latchkey/contracts';
import {
  clientMetersOf,
  effectiveMeters,
  nextMeterResetMs,
  type EffectiveMeter,
  type MeterUsageRow,
} from '../meters/index.ts';
import { hasPendingUpdatesWindow, updatesUntilOf } from './updates-window.ts';

/** A subscription as the client API's checks and answers need it. */
export interface HeldSubscription {
  plan: string;
  /** Null is lifetime. */
  expiresAt: Date | null;
  entitlements: string[];
  /** The plan's device limit; null does not raise the application's. */
  maxDevices: number | null;
  /** The end of its updates window (updates-window.ts); null with no pending days: none. */
  updatesUntil: Date | null;
  /** Days of updates that start at the holder's next login. */
  updatesPendingDays: number | null;
  /** The plan's usage meters. */
  meters: PlanMeter[];
  /** The holder's meter_usage rows, read beside a plan with meters only (else null). */
  meterUsage: MeterUsageRow[] | null;
  /** A floating plan's terms: seats at once, a lease's minutes, the longest borrow; else null. */
  floating: FloatingTerms | null;
}

export interface FloatingTerms {
  seats: number;
  leaseMinutes: number;
  maxBorrowDays: number;
}

/**
 * A user's subscriptions as one JSON value, for a scalar subquery beside the user's row: login,
 * verify's standing and the session lookup read them in the statement they already run, not in
 * a round trip of their own. The (app_user_id, plan_id) unique index finds them.
 */
export function heldSubscriptionsJson(appUserId: AnyColumn) {
  // Qualified names throughout: in a one-table select Drizzle leaves columns unqualified, and
  // "id" would then be ambiguous inside the subquery.
  const outer = sql`${sql.identifier(getTableName(appUserId.table))}.${sql.identifier(appUserId.name)}`;
  return sql<RawHeldSubscription[] | null>`(
    select json_agg(json_build_object(
      'plan', held_plan.name, 'expiresAt', held.expires_at,
      'entitlements', held_plan.entitlements, 'maxDevices', held_plan.max_devices,
      'updatesUntil', held.updates_until, 'updatesPendingDays', held.updates_pending_days,
      'meters', held_plan.meters,
      'meterUsage', ${heldMeterUsageJson(sql`held_plan.meters`, sql`held.app_user_id`)},
      'floating', case when held_plan.floating then json_build_object('seats', held_plan.seats,
        'leaseMinutes', held_plan.lease_minutes, 'maxBorrowDays', held_plan.max_borrow_days) end)
      order by lower(held_plan.name), held_plan.id)
    from ${subscriptions} held join ${plans} held_plan on held_plan.id = held.plan_id
    where held.app_user_id = ${outer})`;
}

/**
 * A holder's meter_usage rows as JSON, beside a plan whose `meters` are not empty; SQL null
 * beside one without any, so the users of plans without meters pay nothing for them. Usage is
 * the holder's, not the plan's: every metered subscription of one user carries the same rows.
 */
export function heldMeterUsageJson(planMeters: SQL, appUserId: SQL) {
  return sql`case when ${planMeters} <> '[]'::jsonb then (
    select coalesce(json_agg(json_build_object(
      'name', usage.meter_name, 'periodStart', usage.period_start, 'used', usage.used)), '[]')
    from meter_usage usage where usage.app_user_id = ${appUserId}) end`;
}

export interface RawHeldSubscription {
  plan: string;
  expiresAt: string | null;
  entitlements: string[];
  maxDevices?: number | null;
  updatesUntil?: string | null;
  updatesPendingDays?: number | null;
  meters?: PlanMeter[];
  meterUsage?: { name: string; periodStart: string; used: number }[] | null;
  floating?: FloatingTerms | null;
}

export function parseHeldSubscriptions(
  raw: RawHeldSubscription[] | string | null,
): HeldSubscription[] {
  // node-postgres parses json; a driver that does not hands over the text.
  const rows = typeof raw === 'string' ? (JSON.parse(raw) as RawHeldSubscription[]) : raw;
  return (rows ?? []).map((row) => ({
    plan: row.plan,
    expiresAt: row.expiresAt === null ? null : new Date(row.expiresAt),
    entitlements: row.entitlements,
    maxDevices: row.maxDevices ?? null,
    updatesUntil: row.updatesUntil ? new Date(row.updatesUntil) : null,
    updatesPendingDays: row.updatesPendingDays ?? null,
    meters: row.meters ?? [],
    meterUsage:
      row.meterUsage?.map((usage) => ({
        name: usage.name,
        periodStart: new Date(usage.periodStart),
        used: Number(usage.used),
      })) ?? null,
    floating: row.floating ?? null,
  }));
}

/** Until when the latest subscription runs (Infinity: lifetime), or null when none is held. */
export function licensedUntilMs(held: HeldSubscription[]): number | null {
  if (held.length === 0) return null;
  let until = -Infinity;
  for (const subscription of held) {
    const ends = subscription.expiresAt === null ? Infinity : subscription.expiresAt.getTime();
    if (ends > until) until = ends;
  }
  return until;
}

/**
 * The licensing fields of a login or verify answer. One object serves every answer until it
 * lapses: it is serialized, never changed.
 */
export interface LicensingAnswer {
  entitlements: string[];
  subscriptions: { plan: string; expires_at: string | null }[];
  /** The end of the holder's updates window; null: every release. */
  updates_until: string | null;
  /** Where the usage meters stand; absent when no active subscription has one. */
  meters?: ClientMeter[];
}

export interface Licensing {
  answer: LicensingAnswer;
  /** The entitlements, for verify's check of those asked for. */
  entitlements: ReadonlySet<string>;
  /** The end of the holder's updates window; null: every release. */
  updatesUntil: Date | null;
  /** The usage meters the active subscriptions define together, by name. */
  meters: EffectiveMeter[];
  /** The holder's usage rows of those meters (any period). */
  meterUsage: MeterUsageRow[];
  /** Until when it holds: the first expiry of an active subscription (Infinity: none). */
  untilMs: number;
}

/**
 * What each held list (a cached user standing's, for as long as it is cached) grants, until
 * its next active subscription lapses: verify, the hottest call, answers from it instead of
 * filtering, sorting and formatting the subscriptions on every request.
 */
const licensingByHeld = new WeakMap<HeldSubscription[], Licensing>();

/** The active subscriptions of `held` at `now`, their entitlements, and until when that holds. */
export function licensingOf(held: HeldSubscription[], now: Date): Licensing {
  const nowMs = now.getTime();
  const known = licensingByHeld.get(held);
  if (known && nowMs < known.untilMs) return known;
  const active = held.filter(
    (subscription) => subscription.expiresAt === null || subscription.expiresAt.getTime() > nowMs,
  );
  const entitlements = new Set(active.flatMap((subscription) => subscription.entitlements));
  const updatesUntil = updatesUntilOf(active, now);
  const meters = effectiveMeters(active.map((subscription) => subscription.meters));
  const meterUsage = meterUsageOf(active);
  const licensing: Licensing = {
    answer: {
      entitlements: [...entitlements].sort(),
      subscriptions: active.map((subscription) => ({
        plan: subscription.plan,
        expires_at: subscription.expiresAt?.toISOString() ?? null,
      })),
      updates_until: updatesUntil?.toISOString() ?? null,
      ...(meters.length === 0 ? {} : { meters: clientMetersOf(meters, meterUsage, now) }),
    },
    entitlements,
    updatesUntil,
    meters,
    meterUsage,
    // A window waiting for a login counts from now, so it is worked out again at each call; a
    // meter's new period changes its answer too.
    untilMs: hasPendingUpdatesWindow(active)
      ? nowMs
      : Math.min(
          nextMeterResetMs(meters, now),
          ...active.map((subscription) => subscription.expiresAt?.getTime() ?? Infinity),
        ),
  };
  licensingByHeld.set(held, licensing);
  return licensing;
}

/** The holder's usage rows, which every subscription of a plan with meters carries alike. */
function meterUsageOf(held: HeldSubscription[]): MeterUsageRow[] {
  return held.find((subscription) => subscription.meterUsage !== null)?.meterUsage ?? [];
}

/** The licensing fields of a login or verify answer: active subscriptions only. */
export function licensingAnswer(held: HeldSubscription[], now: Date): LicensingAnswer {
  return licensingOf(held, now).answer;
}

/** One user's subscriptions, read on their own (after a redemption). */
export async function readHeldSubscriptions(db: Database, appUserId: string) {
  const [row] = await db
    .select({ held: heldSubscriptionsJson(appUsers.id) })
    .from(appUsers)
    .where(sql`${appUsers.id} = ${appUserId}`);
  return parseHeldSubscriptions(row?.held ?? null);
}
