import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import {
  type UserMeter,
  PLAN_NOT_FOUND,
  SUBSCRIPTION_EXISTS,
  SUBSCRIPTION_NOT_FOUND,
  type Subscription as SubscriptionResponse,
} from '@latchkey/contracts';
import type { Database } from '../../db/client.ts';
import { appUsers, plans, subscriptions } from '../../db/schema/index.ts';
import { isUniqueViolation } from '../../lib/database-errors.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import {
  appUserNotFound,
  announceEndUserChange,
  ownedAppUserWhere,
  type AppUserIds,
  type EndUserChangeContext,
} from '../../ownership/owned-app-user.ts';
import { recordOwnerWrite } from '../../audit/record-owner-write.ts';
import { endSessionsIfUnlicensed } from './extend-subscription.ts';
import { newUpdatesWindow } from './updates-window.ts';
import { readUserMeters } from './read-user-meters.ts';

/** A user's subscriptions with their plans, by plan name: what the owner and the client see. */
export async function readSubscriptions(db: Database, appUserId: string, now: Date) {
  return (await readSubscriptionsOfUsers(db, [appUserId], now)).get(appUserId) ?? [];
}

/** Several users' subscriptions in one statement (a page of the users list), by user id. */
export async function readSubscriptionsOfUsers(
  db: Database,
  appUserIds: string[],
  now: Date,
): Promise<Map<string, SubscriptionResponse[]>> {
  const byUser = new Map<string, SubscriptionResponse[]>();
  if (appUserIds.length === 0) return byUser;
  const rows = await db
    .select({
      id: subscriptions.id,
      appUserId: subscriptions.appUserId,
      planId: subscriptions.planId,
      planName: plans.name,
      expiresAt: subscriptions.expiresAt,
      entitlements: plans.entitlements,
      updatesUntil: subscriptions.updatesUntil,
      updatesPendingDays: subscriptions.updatesPendingDays,
    })
    .from(subscriptions)
    .innerJoin(plans, eq(plans.id, subscriptions.planId))
    .where(inArray(subscriptions.appUserId, appUserIds))
    .orderBy(asc(sql`lower(${plans.name})`), asc(plans.id));
  for (const row of rows) {
    const held = byUser.get(row.appUserId) ?? [];
    held.push({
      id: row.id,
      planId: row.planId,
      planName: row.planName,
      expiresAt: row.expiresAt?.toISOString() ?? null,
      entitlements: row.entitlements,
      isActive: row.expiresAt === null || row.expiresAt > now,
      updatesUntil: row.updatesUntil?.toISOString() ?? null,
      updatesPendingDays: row.updatesPendingDays,
    });
    byUser.set(row.appUserId, held);
  }
  return byUser;
}

/** What the active ones of these subscriptions entitle to, sorted, each once. */
export function activeEntitlements(held: SubscriptionResponse[]): string[] {
  return [
    ...new Set(held.filter((each) => each.isActive).flatMap((each) => each.entitlements)),
  ].sort();
}

async function assertOwnedUser(
  ctx: EndUserChangeContext,
  ids: AppUserIds,
): Promise<{ id: string; username: string }> {
  const [user] = await ctx.db
    .select({ id: appUsers.id, username: appUsers.username })
    .from(appUsers)
    .where(ownedAppUserWhere(ctx, ids));
  if (!user) throw await appUserNotFound(ctx, ids);
  return user;
}

/**
 * The audit entry of a change of one user's subscription, in the change's transaction: the
 * user is the target, the plan (by name, as it is now) part of the change.
 */
async function recordSubscriptionChange(
  ctx: EndUserChangeContext,
  input: {
    action: 'subscription_granted' | 'subscription_updated' | 'subscription_removed';
    ids: AppUserIds;
    planId: string;
    expiresAt?: Date | null;
  },
): Promise<void> {
  const [names] = await ctx.db
    .select({ username: appUsers.username, planName: plans.name })
    .from(appUsers)
    .innerJoin(
      plans,
      and(eq(plans.id, input.planId), eq(plans.applicationId, input.ids.applicationId)),
    )
    .where(ownedAppUserWhere(ctx, input.ids));
  await recordOwnerWrite({
    ctx,
    input: {
      action: input.action,
      application: { id: input.ids.applicationId },
      target: { kind: 'end_user', id: input.ids.userId, label: names?.username ?? null },
      change: {
        planId: input.planId,
        planName: names?.planName ?? null,
        ...(input.expiresAt === undefined ? {} : { expiresAt: input.expiresAt }),
      },
    },
  });
}

/** GET …/users/:userId/subscriptions. */
export async function listUserSubscriptions({
  ctx,
  input,
}: {
  ctx: EndUserChangeContext;
  input: AppUserIds;
}): Promise<SubscriptionResponse[]> {
  await assertOwnedUser(ctx, input);
  return readSubscriptions(ctx.db, input.userId, ctx.clock.now());
}

/** GET …/users/:userId/meters: where each usage meter of an owned end user stands now. */
export async function listUserMeters({
  ctx,
  input,
}: {
  ctx: EndUserChangeContext;
  input: AppUserIds;
}): Promise<UserMeter[]> {
  await assertOwnedUser(ctx, input);
  return readUserMeters(ctx.db, input.userId, ctx.clock.now());
}

/**
 * Grants a plan by hand: until `expiresAt`, or for the plan's duration from now when absent
 * (null is lifetime). A plan the user already holds is a 409: extending is an edit.
 */
export async function grantSubscription({
  ctx,
  input,
}: {
  ctx: EndUserChangeContext;
  input: AppUserIds & { planId: string; expiresAt?: string | null | undefined };
}): Promise<SubscriptionResponse[]> {
  await assertOwnedUser(ctx, input);
  const now = ctx.clock.now();
  const [plan] = await ctx.db
    .select({
      id: plans.id,
      durationDays: plans.durationDays,
      updatesForDays: plans.updatesForDays,
      updatesFrom: plans.updatesFrom,
    })
    .from(plans)
    .where(
      and(
        eq(plans.id, input.planId),
        eq(plans.applicationId, input.applicationId),
        // A trial is started by its machine, never granted.
        eq(plans.isTrial, false),
      ),
    );
  if (!plan) throw notFound(PLAN_NOT_FOUND);
  const expiresAt =
    input.expiresAt !== undefined
      ? input.expiresAt === null
        ? null
        : new Date(input.expiresAt)
      : plan.durationDays === null
        ? null
        : new Date(now.getTime() + plan.durationDays * 86_400_000);
  try {
    await ctx.db.transaction(async (tx) => {
      await tx.insert(subscriptions).values({
        applicationId: input.applicationId,
        appUserId: input.userId,
        planId: plan.id,
        expiresAt,
        ...newUpdatesWindow(plan, now),
        createdAt: now,
        updatedAt: now,
      });
      await recordSubscriptionChange(
        { ...ctx, db: tx },
        { action: 'subscription_granted', ids: input, planId: plan.id, expiresAt },
      );
    });
  } catch (error) {
    if (isUniqueViolation(error, 'subscriptions_user_plan_idx')) {
      throw new AppError('CONFLICT', SUBSCRIPTION_EXISTS);
    }
    throw error;
  }
  await announceEndUserChange(ctx, input);
  return readSubscriptions(ctx.db, input.userId, now);
}

function ownedSubscriptionWhere(
  ctx: EndUserChangeContext,
  input: AppUserIds & { subscriptionId: string },
) {
  return and(
    eq(subscriptions.id, input.subscriptionId),
    eq(subscriptions.appUserId, input.userId),
    eq(subscriptions.applicationId, input.applicationId),
    sql`exists (${ctx.db
      .select({ one: sql`1` })
      .from(appUsers)
      .where(ownedAppUserWhere(ctx, input))})`,
  );
}

/**
 * Extends or shortens a subscription (null is lifetime). Shortening it into the past can
 * leave a user of an application that requires a licence with nothing: their sessions end in
 * the same transaction, as pausing does.
 */
export async function updateSubscription({
  ctx,
  input,
}: {
  ctx: EndUserChangeContext;
  input: AppUserIds & {
    subscriptionId: string;
    expiresAt: string | null;
    updatesUntil?: string | null | undefined;
  };
}): Promise<SubscriptionResponse[]> {
  const now = ctx.clock.now();
  // A window set by hand has started: no days wait for a login any more.
  const window =
    input.updatesUntil === undefined
      ? {}
      : {
          updatesUntil: input.updatesUntil === null ? null : new Date(input.updatesUntil),
          updatesPendingDays: null,
        };
  const updated = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(subscriptions)
      .set({
        expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
        ...window,
        updatedAt: now,
      })
      .where(ownedSubscriptionWhere(ctx, input))
      .returning({
        id: subscriptions.id,
        planId: subscriptions.planId,
        expiresAt: subscriptions.expiresAt,
      });
    if (!row) return undefined;
    await endSessionsIfUnlicensed(
      tx,
      { applicationId: input.applicationId, appUserId: input.userId },
      now,
    );
    await recordSubscriptionChange(
      { ...ctx, db: tx },
      { action: 'subscription_updated', ids: input, planId: row.planId, expiresAt: row.expiresAt },
    );
    return row;
  });
  if (!updated) throw await subscriptionNotFound(ctx, input);
  await announceEndUserChange(ctx, input);
  return readSubscriptions(ctx.db, input.userId, now);
}

/** Removes a subscription; the same rule as shortening applies to the user's sessions. */
export async function deleteSubscription({
  ctx,
  input,
}: {
  ctx: EndUserChangeContext;
  input: AppUserIds & { subscriptionId: string };
}): Promise<SubscriptionResponse[]> {
  const now = ctx.clock.now();
  const deleted = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .delete(subscriptions)
      .where(ownedSubscriptionWhere(ctx, input))
      .returning({ id: subscriptions.id, planId: subscriptions.planId });
    if (!row) return undefined;
    await endSessionsIfUnlicensed(
      tx,
      { applicationId: input.applicationId, appUserId: input.userId },
      now,
    );
    await recordSubscriptionChange(
      { ...ctx, db: tx },
      { action: 'subscription_removed', ids: input, planId: row.planId },
    );
    return row;
  });
  if (!deleted) throw await subscriptionNotFound(ctx, input);
  await announceEndUserChange(ctx, input);
  return readSubscriptions(ctx.db, input.userId, now);
}

async function subscriptionNotFound(ctx: EndUserChangeContext, ids: AppUserIds) {
  await assertOwnedUser(ctx, ids);
  return notFound(SUBSCRIPTION_NOT_FOUND);
}
