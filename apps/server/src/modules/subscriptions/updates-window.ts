import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { subscriptions } from '../../db/schema/index.ts';

/**
 * The updates window ("buy once, a year of updates"): a plan may grant updates for so many
 * days, counted from the grant or from the holder's next login (activation). A subscription
 * keeps the window's end (`updates_until`) or, before activation, the days still to start
 * (`updates_pending_days`); both null is no window: every release. The holder's window is the
 * latest of their active subscriptions' windows, and any active subscription without one
 * lifts it. Releases published after it are refused; the ones before keep working.
 */

const DAY_MS = 86_400_000;

/** What these rules read of a held subscription (held-subscriptions.ts has the whole). */
export interface WindowedSubscription {
  /** Null is lifetime. */
  expiresAt: Date | null;
  updatesUntil: Date | null;
  updatesPendingDays: number | null;
}

/** A plan's window, as its grants need it. */
export interface PlanUpdatesWindow {
  /** Null: no window. */
  updatesForDays: number | null;
  updatesFrom: 'redemption' | 'activation';
}

/** The window columns of a subscription a grant creates. */
export function newUpdatesWindow(
  plan: PlanUpdatesWindow,
  now: Date,
): { updatesUntil: Date | null; updatesPendingDays: number | null } {
  if (plan.updatesForDays === null) return { updatesUntil: null, updatesPendingDays: null };
  return plan.updatesFrom === 'activation'
    ? { updatesUntil: null, updatesPendingDays: plan.updatesForDays }
    : {
        updatesUntil: new Date(now.getTime() + plan.updatesForDays * DAY_MS),
        updatesPendingDays: null,
      };
}

/**
 * The window columns after another grant of `days` (null: no window) on an existing
 * subscription, for an upsert's SET: a grant without a window lifts it, a subscription
 * without one stays so, a started window extends from the later of now and its end, and
 * days not yet started add up. SQL over the row's current `updates_until` and
 * `updates_pending_days`.
 */
export function stackedUpdatesWindow(
  current: { until: SQL; pendingDays: SQL },
  days: SQL,
  now: SQL,
): { updatesUntil: SQL; updatesPendingDays: SQL } {
  const isUnlimited = sql`(${days} is null or (${current.until} is null and ${current.pendingDays} is null))`;
  return {
    updatesUntil: sql`case when ${isUnlimited} or ${current.until} is null then null
      else greatest(${current.until}, ${now}) + make_interval(days => ${days}) end`,
    updatesPendingDays: sql`case when ${isUnlimited} or ${current.until} is not null then null
      else ${current.pendingDays} + ${days} end`,
  };
}

/** Whether any of these subscriptions has a window waiting for the holder's login. */
export function hasPendingUpdatesWindow(held: readonly WindowedSubscription[]): boolean {
  return held.some((subscription) => subscription.updatesPendingDays !== null);
}

/**
 * Starts the windows that wait for activation (a login): their days now count from `now`.
 * Answers `held` as it now is. Runs once per grant: later logins find nothing pending.
 */
export async function startPendingUpdatesWindows<Held extends WindowedSubscription>(
  db: Database,
  appUserId: string,
  held: Held[],
  now: Date,
): Promise<Held[]> {
  await db
    .update(subscriptions)
    .set({
      updatesUntil: sql`${now.toISOString()}::timestamptz + make_interval(days => ${subscriptions.updatesPendingDays})`,
      updatesPendingDays: null,
      updatedAt: now,
    })
    .where(
      sql`${subscriptions.appUserId} = ${appUserId} and ${subscriptions.updatesPendingDays} is not null`,
    );
  return held.map((subscription) =>
    subscription.updatesPendingDays === null
      ? subscription
      : {
          ...subscription,
          updatesUntil: new Date(now.getTime() + subscription.updatesPendingDays * DAY_MS),
          updatesPendingDays: null,
        },
  );
}

/**
 * The end of the holder's updates window at `now`, or null for every release: no active
 * subscription, or an active one without a window. A window not started yet counts from now.
 */
export function updatesUntilOf(held: readonly WindowedSubscription[], now: Date): Date | null {
  const nowMs = now.getTime();
  let latest = -Infinity;
  let isAnyActive = false;
  for (const subscription of held) {
    if (subscription.expiresAt !== null && subscription.expiresAt.getTime() <= nowMs) continue;
    isAnyActive = true;
    const ends =
      subscription.updatesUntil?.getTime() ??
      (subscription.updatesPendingDays === null
        ? Infinity
        : nowMs + subscription.updatesPendingDays * DAY_MS);
    if (ends > latest) latest = ends;
  }
  return !isAnyActive || latest === Infinity ? null : new Date(latest);
}

/** Whether a release published at `publishedAt` is past the holder's window. */
export function isPastUpdatesWindow(updatesUntil: Date | null, publishedAt: Date): boolean {
  return updatesUntil !== null && publishedAt.getTime() > updatesUntil.getTime();
}
