import { and, eq, isNull, sql } from 'drizzle-orm';
import { shopCustomers, shopOrders } from '../../db/schema/index.ts';
import { mintOrderKeys } from './mint-order-keys.ts';
import type { ShopCustomerEvent, ShopSubscriptionLinkEvent } from './providers/shop-event.ts';
import { mergeEffects, noEffect, type ShopEffect, type ShopEffectContext } from './shop-effect.ts';

/**
 * A buyer's address by the shop's customer id (Paddle): kept for later orders, and the
 * orders that were waiting for it are minted and mailed now.
 */
export async function applyCustomerEvent(
  ctx: ShopEffectContext,
  event: ShopCustomerEvent,
): Promise<ShopEffect> {
  await ctx.tx
    .insert(shopCustomers)
    .values({
      connectionId: ctx.connection.id,
      customerRef: event.customerRef,
      email: event.email,
      updatedAt: ctx.now,
    })
    .onConflictDoUpdate({
      target: [shopCustomers.connectionId, shopCustomers.customerRef],
      set: { email: event.email, updatedAt: ctx.now },
    });
  const waiting = await ctx.tx
    .update(shopOrders)
    .set({ buyerEmail: event.email, status: 'paid', updatedAt: ctx.now })
    .where(
      and(
        eq(shopOrders.connectionId, ctx.connection.id),
        eq(shopOrders.customerRef, event.customerRef),
        eq(shopOrders.status, 'awaiting_email'),
      ),
    )
    .returning();
  if (waiting.length === 0) return noEffect(`address of customer ${event.customerRef} kept`);
  const effects = [];
  for (const order of waiting) effects.push(await mintOrderKeys(ctx, order));
  return mergeEffects(effects.map((effect) => effect.outcome).join('; '), effects);
}

/** A subscription's first order, or more ids of it, named after the fact. */
export async function applySubscriptionLinkEvent(
  ctx: ShopEffectContext,
  event: ShopSubscriptionLinkEvent,
): Promise<ShopEffect> {
  const linked = await ctx.tx
    .update(shopOrders)
    .set({
      subscriptionRef: event.subscriptionRef,
      // One text parameter (a JSON array): drizzle spreads a JS array into a list of parameters.
      refs: sql`array(select distinct unnest(${shopOrders.refs} || array(
        select jsonb_array_elements_text(${JSON.stringify(event.refs)}::jsonb))))`,
      updatedAt: ctx.now,
    })
    .where(
      and(
        eq(shopOrders.connectionId, ctx.connection.id),
        isNull(shopOrders.renewsOrderId),
        event.orderId === null
          ? eq(shopOrders.subscriptionRef, event.subscriptionRef)
          : eq(shopOrders.providerOrderId, event.orderId),
      ),
    )
    .returning({ id: shopOrders.id });
  return linked.length === 0
    ? noEffect(`no order of subscription ${event.subscriptionRef} is known yet`)
    : {
        ...noEffect(`subscription ${event.subscriptionRef} linked`),
        orderIds: linked.map((row) => row.id),
      };
}
