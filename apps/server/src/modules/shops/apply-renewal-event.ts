import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { licenseKeys, plans, shopOrders } from '../../db/schema/index.ts';
import { extendSubscription } from '../subscriptions/index.ts';
import type { ShopRenewalEvent } from './providers/shop-event.ts';
import {
  mergeEffects,
  noEffect,
  orderActivity,
  type ShopEffect,
  type ShopEffectContext,
} from './shop-effect.ts';

/** What a renewal did, in the order's log. */
function renewalOutcome(planName: string, days: number | null, updatesDays: number | null) {
  if (days !== null && updatesDays !== null) {
    return `extended by ${days} days, with ${updatesDays} days of updates`;
  }
  if (days !== null) return `extended by ${days} days`;
  if (updatesDays !== null) return `updates extended by ${updatesDays} days`;
  return `renewed (${planName} is lifetime: nothing to extend)`;
}

/**
 * A subscription's later payment: each line of the order that started the subscription gets
 * a renewal row (its unique index makes a repeated delivery extend nothing) and its keys one
 * more period of their plan, stacked as licence keys stack: a used key extends its holder's
 * subscription from the later of now and its end (and the key's grant grows, so a refund
 * takes the whole of it back); an unused key carries the days into its redemption. Not the
 * provider's period end: the plan's duration is what was sold. The plan's updates window
 * renews the same way, so a lifetime plan sold with a year of updates renews its updates; a
 * lifetime plan without one has nothing to extend.
 */
export async function applyRenewalEvent(
  ctx: ShopEffectContext,
  event: ShopRenewalEvent,
): Promise<ShopEffect> {
  const firstLines = await ctx.tx
    .select()
    .from(shopOrders)
    .where(
      and(
        eq(shopOrders.connectionId, ctx.connection.id),
        eq(shopOrders.subscriptionRef, event.subscriptionRef),
        isNull(shopOrders.renewsOrderId),
      ),
    )
    .orderBy(asc(shopOrders.createdAt));
  if (firstLines.length === 0) {
    return noEffect(`no order of subscription ${event.subscriptionRef} is known`);
  }
  const effects: ShopEffect[] = [];
  for (const [index, first] of firstLines.entries()) {
    if (first.status !== 'paid' || first.planId === null) {
      effects.push(noEffect(`the first order is ${first.status}: nothing to extend`));
      continue;
    }
    const [renewal] = await ctx.tx
      .insert(shopOrders)
      .values({
        applicationId: ctx.connection.applicationId,
        connectionId: ctx.connection.id,
        provider: ctx.connection.provider,
        providerOrderId: event.orderId,
        productId: first.productId,
        refs: [...new Set([event.orderId, ...event.refs])],
        subscriptionRef: event.subscriptionRef,
        customerRef: first.customerRef,
        renewsOrderId: first.id,
        buyerEmail: first.buyerEmail,
        quantity: first.quantity,
        amount: index === 0 ? event.amount : null,
        currency: event.currency,
        isTestMode: event.isTest || ctx.connection.isTestMode,
        status: 'renewed',
        planId: first.planId,
        createdAt: ctx.now,
        updatedAt: ctx.now,
      })
      .onConflictDoNothing()
      .returning();
    if (!renewal) {
      effects.push(noEffect('already processed'));
      continue;
    }
    const [plan] = await ctx.tx
      .select({
        durationDays: plans.durationDays,
        name: plans.name,
        updatesForDays: plans.updatesForDays,
        updatesFrom: plans.updatesFrom,
      })
      .from(plans)
      .where(eq(plans.id, first.planId));
    const days = plan?.durationDays ?? null;
    const updatesDays = plan?.updatesForDays ?? null;
    const changedUserIds: string[] = [];
    // A lifetime plan with an updates window ("buy once, a year of updates") renews its window.
    if (plan && (days !== null || updatesDays !== null)) {
      const keys = await ctx.tx
        .select()
        .from(licenseKeys)
        .where(
          and(
            eq(licenseKeys.shopOrderId, first.id),
            inArray(licenseKeys.state, ['unused', 'used']),
          ),
        );
      for (const key of keys) {
        if (key.state === 'used' && key.usedByUserId) {
          await extendSubscription(ctx.tx, {
            applicationId: key.applicationId,
            appUserId: key.usedByUserId,
            planId: key.planId,
            // Null on a lifetime plan: the subscription already is (a lifetime grant keeps it so).
            durationDays: days,
            // A renewal extends the updates window too, as a second key of the plan would.
            updatesWindow: plan,
            now: ctx.now,
          });
          if (days !== null) {
            await ctx.tx
              .update(licenseKeys)
              .set({ grantedDays: sql`coalesce(${licenseKeys.grantedDays}, 0) + ${days}` })
              .where(eq(licenseKeys.id, key.id));
          }
          changedUserIds.push(key.usedByUserId);
        } else if (key.state === 'unused') {
          await ctx.tx
            .update(licenseKeys)
            .set({
              extraDays: sql`${licenseKeys.extraDays} + ${days ?? 0}`,
              extraUpdatesDays: sql`${licenseKeys.extraUpdatesDays} + ${updatesDays ?? 0}`,
            })
            .where(eq(licenseKeys.id, key.id));
        }
      }
    }
    effects.push({
      outcome: renewalOutcome(plan?.name ?? 'the plan', days, updatesDays),
      orderIds: [renewal.id],
      activity: [orderActivity(ctx, 'order_renewed', renewal, { renews: first.id, days })],
      hasQueuedMail: false,
      keys: [],
      changedUserIds,
    });
  }
  return mergeEffects(effects.map((effect) => effect.outcome).join('; '), effects);
}
