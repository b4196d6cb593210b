import { and, arrayOverlaps, asc, eq, inArray } from 'drizzle-orm';
import {
  licenseKeys,
  shopCustomers,
  shopEvents,
  shopOrders,
  type ShopOrderRow,
} from '../../db/schema/index.ts';
import { unsealLicenseKey } from '../licenses/index.ts';
import { mintOrderKeys } from './mint-order-keys.ts';
import type { ShopPaidEvent } from './providers/shop-event.ts';
import { mergeEffects, noEffect, type ShopEffect, type ShopEffectContext } from './shop-effect.ts';

/**
 * A paid order: one row per product, each minted (or left needing a mapping) by whichever
 * delivery inserts it first. The row's unique index is the guard: a retried, doubled or
 * concurrent delivery finds the row there and mints nothing, answering the keys minted the
 * first time (a dynamic delivery asked twice gets the same keys). A refund or dispute that
 * arrived first is found among the connection's events: the order is then recorded as
 * refunded and nothing is minted. An order whose buyer's address the shop has not sent yet
 * (Paddle names a customer id) waits for it, `awaiting_email`.
 */
export async function applyPaidEvent(
  ctx: ShopEffectContext,
  event: ShopPaidEvent,
): Promise<ShopEffect> {
  const refs = [...new Set([event.orderId, ...event.refs])];
  const [reversal] = await ctx.tx
    .select({ kind: shopEvents.kind })
    .from(shopEvents)
    .where(
      and(
        eq(shopEvents.connectionId, ctx.connection.id),
        inArray(shopEvents.kind, ['refund', 'chargeback']),
        arrayOverlaps(shopEvents.refs, refs),
      ),
    )
    .limit(1);
  const buyerEmail = event.buyerEmail ?? (await knownCustomerEmail(ctx, event.customerRef));
  const items = event.items.length > 0 ? event.items : [{ productId: '', quantity: 1 }];
  const effects: ShopEffect[] = [];
  for (const [index, item] of items.entries()) {
    const [inserted] = await ctx.tx
      .insert(shopOrders)
      .values({
        applicationId: ctx.connection.applicationId,
        connectionId: ctx.connection.id,
        provider: ctx.connection.provider,
        providerOrderId: event.orderId,
        productId: item.productId,
        refs,
        subscriptionRef: event.subscriptionRef,
        customerRef: event.customerRef,
        buyerEmail,
        quantity: item.quantity,
        // The order's amount belongs to it once: on its first line.
        amount: index === 0 ? event.amount : null,
        currency: event.currency,
        isTestMode: event.isTest || ctx.connection.isTestMode,
        status: reversal ? (reversal.kind === 'chargeback' ? 'chargeback' : 'refunded') : 'paid',
        createdAt: ctx.now,
        updatedAt: ctx.now,
      })
      .onConflictDoNothing()
      .returning();
    if (!inserted) {
      effects.push(await alreadyProcessed(ctx, event.orderId, item.productId));
    } else if (reversal) {
      effects.push({
        ...noEffect(`recorded as ${inserted.status}: the shop reversed it before it arrived`),
        orderIds: [inserted.id],
      });
    } else if (buyerEmail === null && event.customerRef !== null) {
      await ctx.tx
        .update(shopOrders)
        .set({ status: 'awaiting_email' })
        .where(eq(shopOrders.id, inserted.id));
      effects.push({
        ...noEffect('waiting for the buyer\u2019s address (a customer event)'),
        orderIds: [inserted.id],
      });
    } else {
      effects.push(await mintOrderKeys(ctx, inserted));
    }
  }
  return mergeEffects(effects.map((effect) => effect.outcome).join('; '), effects);
}

async function knownCustomerEmail(
  ctx: ShopEffectContext,
  customerRef: string | null,
): Promise<string | null> {
  if (customerRef === null) return null;
  const [customer] = await ctx.tx
    .select({ email: shopCustomers.email })
    .from(shopCustomers)
    .where(
      and(
        eq(shopCustomers.connectionId, ctx.connection.id),
        eq(shopCustomers.customerRef, customerRef),
      ),
    );
  return customer?.email ?? null;
}

/** The line as the first delivery left it, with its keys (for a dynamic delivery asked again). */
async function alreadyProcessed(
  ctx: ShopEffectContext,
  providerOrderId: string,
  productId: string,
): Promise<ShopEffect> {
  const [order] = await ctx.tx
    .select()
    .from(shopOrders)
    .where(
      and(
        eq(shopOrders.connectionId, ctx.connection.id),
        eq(shopOrders.providerOrderId, providerOrderId),
        eq(shopOrders.productId, productId),
      ),
    );
  if (!order) return noEffect('already processed');
  return {
    ...noEffect(`already processed (${order.status})`),
    orderIds: [order.id],
    keys: await orderKeys(ctx, order),
  };
}

/** The whole keys an order line minted, oldest first; none once it was refunded. */
export async function orderKeys(ctx: ShopEffectContext, order: ShopOrderRow): Promise<string[]> {
  if (order.status !== 'paid') return [];
  const rows = await ctx.tx
    .select({ sealed: licenseKeys.keySealed })
    .from(licenseKeys)
    .where(eq(licenseKeys.shopOrderId, order.id))
    .orderBy(asc(licenseKeys.createdAt), asc(licenseKeys.id));
  return rows.map((row) => unsealLicenseKey(row.sealed, ctx.serverSecret));
}
