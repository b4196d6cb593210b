import { and, eq, gt, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { applications, subscriptions } from '../../db/schema/index.ts';
import { endSessions } from '../../outbox/end-sessions.ts';
import {
  newUpdatesWindow,
  stackedUpdatesWindow,
  type PlanUpdatesWindow,
} from './updates-window.ts';

export interface SubscriptionGrant {
  subscriptionId: string;
  /** Days added; null when the grant made the subscription lifetime. */
  grantedDays: number | null;
  isLifetime: boolean;
}

/**
 * A subscription's expiry after a grant of `durationDays` (null: lifetime) on top of its
 * `current` one: from the later of now and the current expiry (stacking, never shortening);
 * lifetime stays lifetime, and a lifetime grant makes it so. SQL, for an upsert's SET.
 */
export function stackedExpiry(current: SQL, durationDays: SQL, now: SQL): SQL {
  return sql`case when ${durationDays} is null or ${current} is null then null
              else greatest(${current}, ${now}) + make_interval(days => ${durationDays}) end`;
}

/**
 * Adds one plan's duration to an end user's subscription of that plan, creating it if need be:
 * from the later of now and its current expiry (stacking, never shortening), or for ever for a
 * lifetime plan. One `INSERT … ON CONFLICT DO UPDATE`: of two grants at once, the second waits
 * for the first's row lock and stacks on its result, so neither is lost. With `updatesWindow`
 * (a renewal) the plan's updates window stacks the same way; without it (an unban giving back
 * days, whose window was never taken) the window stays as it is.
 */
export async function extendSubscription(
  db: Database,
  input: {
    applicationId: number;
    appUserId: string;
    planId: string;
    /** Null is lifetime. */
    durationDays: number | null;
    updatesWindow: PlanUpdatesWindow | null;
    now: Date;
  },
): Promise<SubscriptionGrant> {
  const { durationDays, now, updatesWindow } = input;
  const at = sql`${now.toISOString()}::timestamptz`;
  const stackedWindow = updatesWindow
    ? stackedUpdatesWindow(
        {
          until: sql`${subscriptions.updatesUntil}`,
          pendingDays: sql`${subscriptions.updatesPendingDays}`,
        },
        sql`${updatesWindow.updatesForDays}::int`,
        at,
      )
    : {};
  const fromNow =
    durationDays === null ? null : new Date(now.getTime() + durationDays * 86_400_000);
  const [row] = await db
    .insert(subscriptions)
    .values({
      applicationId: input.applicationId,
      appUserId: input.appUserId,
      planId: input.planId,
      expiresAt: fromNow,
      ...(updatesWindow ? newUpdatesWindow(updatesWindow, now) : {}),
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: [subscriptions.appUserId, subscriptions.planId],
      set: {
        expiresAt: stackedExpiry(sql`${subscriptions.expiresAt}`, sql`${durationDays}::int`, at),
        ...stackedWindow,
        updatedAt: now,
      },
    })
    .returning({ id: subscriptions.id });
  if (!row) throw new Error('upsert returned no row');
  return { subscriptionId: row.id, grantedDays: durationDays, isLifetime: durationDays === null };
}

/**
 * Takes back what one grant added (a banned key): its days come off the expiry, and a lifetime
 * grant ends the subscription now unless `keepLifetime` (another lifetime grant still holds).
 * Answers nothing; the subscription row stays, perhaps past its expiry.
 */
export async function takeBackGrant(
  db: Database,
  input: {
    subscriptionId: string;
    grantedDays: number | null;
    isLifetime: boolean;
    keepLifetime: boolean;
    now: Date;
  },
): Promise<void> {
  const { now } = input;
  if (input.isLifetime) {
    if (input.keepLifetime) return;
    await db
      .update(subscriptions)
      .set({ expiresAt: now, updatedAt: now })
      .where(and(eq(subscriptions.id, input.subscriptionId), isNull(subscriptions.expiresAt)));
    return;
  }
  if (!input.grantedDays) return;
  await db
    .update(subscriptions)
    .set({
      expiresAt: sql`${subscriptions.expiresAt} - make_interval(days => ${input.grantedDays})`,
      updatedAt: now,
    })
    .where(eq(subscriptions.id, input.subscriptionId));
}

/** Whether an end user holds at least one subscription that has not expired. */
export async function hasActiveSubscription(
  db: Database,
  appUserId: string,
  now: Date,
): Promise<boolean> {
  const [row] = await db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.appUserId, appUserId),
        or(isNull(subscriptions.expiresAt), gt(subscriptions.expiresAt, now)),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * After a subscription shrank or went (a ban, a shortening, a removal): a user of an
 * application that requires a licence who is left with none loses their sessions now, in the
 * caller's transaction, as pausing does. The next heartbeat answers NO_ACTIVE_SUBSCRIPTION.
 */
export async function endSessionsIfUnlicensed(
  db: Database,
  ids: { applicationId: number; appUserId: string },
  now: Date,
): Promise<void> {
  const [application] = await db
    .select({ isLicenseRequired: applications.isLicenseRequired })
    .from(applications)
    .where(eq(applications.id, ids.applicationId));
  if (!application?.isLicenseRequired) return;
  if (await hasActiveSubscription(db, ids.appUserId, now)) return;
  await endSessions(db, { appUserId: ids.appUserId }, 'standing', now);
}
