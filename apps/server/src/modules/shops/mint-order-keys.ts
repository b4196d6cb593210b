import { and, eq } from 'drizzle-orm';
import {
  DEFAULT_LICENSE_KEY_MASK,
  MAX_KEYS_PER_ORDER_LINE,
  MAX_LICENSE_KEYS_PER_MAIL,
} from '@latchkey/contracts';
import { plans, shopOrders, type ShopOrderRow } from '../../db/schema/index.ts';
import { mintLicenseKeys } from '../licenses/index.ts';
import { queueMail } from '../mail/index.ts';
import { noEffect, orderActivity, type ShopEffect, type ShopEffectContext } from './shop-effect.ts';

/**
 * Mints an order line's keys for the plan its product is mapped to, mails them to the buyer
 * (the licence-key mail, with the order's number; a large order in several mails of at most
 * a hundred keys) and marks the line paid, all in the caller's transaction. A line whose
 * product is mapped to no plan, or to an archived one, is left `needs_mapping` instead, for
 * the owner to map and process.
 */
export async function mintOrderKeys(
  ctx: ShopEffectContext,
  order: ShopOrderRow,
): Promise<ShopEffect> {
  const mapping = ctx.connection.products.find((product) => product.productId === order.productId);
  const [plan] = mapping
    ? await ctx.tx
        .select({ id: plans.id, name: plans.name, isArchived: plans.isArchived })
        .from(plans)
        .where(
          and(eq(plans.id, mapping.planId), eq(plans.applicationId, ctx.connection.applicationId)),
        )
    : [];
  const count = order.quantity * (mapping?.quantity ?? 1);
  const problem = !order.productId
    ? 'the event names no product'
    : !mapping
      ? `product ${order.productId} is mapped to no plan`
      : !plan
        ? 'the mapped plan no longer exists'
        : plan.isArchived
          ? `plan ${plan.name} is archived`
          : count > MAX_KEYS_PER_ORDER_LINE
            ? `${count} keys is more than one order line mints (${MAX_KEYS_PER_ORDER_LINE})`
            : null;
  if (problem || !plan) {
    await setStatus(ctx, order.id, 'needs_mapping', null);
    return { ...noEffect(`needs mapping: ${problem}`), orderIds: [order.id] };
  }
  const keys = await mintLicenseKeys(ctx.tx, {
    applicationId: ctx.connection.applicationId,
    planId: plan.id,
    count,
    mask: DEFAULT_LICENSE_KEY_MASK,
    case: 'upper',
    note: `${ctx.connection.name} order ${order.providerOrderId}`.slice(0, 200),
    redeemBy: null,
    now: ctx.now,
    serverSecret: ctx.serverSecret,
    shopOrder: { id: order.id, buyerEmail: order.buyerEmail },
  });
  await setStatus(ctx, order.id, 'paid', plan.id);
  const isMailed = ctx.canMail && order.buyerEmail !== null;
  if (isMailed) {
    for (let start = 0; start < keys.length; start += MAX_LICENSE_KEYS_PER_MAIL) {
      await queueMail(ctx.tx, {
        applicationId: ctx.connection.applicationId,
        kind: 'license_key',
        recipient: order.buyerEmail!,
        values: { plan: plan.name, order: order.providerOrderId },
        secrets: {
          key: keys
            .slice(start, start + MAX_LICENSE_KEYS_PER_MAIL)
            .map((key) => key.key)
            .join('\n'),
        },
        serverSecret: ctx.serverSecret,
      });
    }
  }
  const paid = { ...order, status: 'paid' as const };
  return {
    outcome: `minted ${keys.length} ${keys.length === 1 ? 'key' : 'keys'} of ${plan.name}${
      isMailed
        ? `, mailed to ${order.buyerEmail}`
        : order.buyerEmail
          ? ' (the server sends no mail)'
          : ''
    }`,
    orderIds: [order.id],
    activity: [
      orderActivity(ctx, 'order_paid', paid, {
        planId: plan.id,
        keys: keys.length,
        licenseIds: keys.map((key) => key.id),
      }),
    ],
    hasQueuedMail: isMailed,
    // In the order a dynamic delivery asked again reads them back (orderKeys).
    keys: keys.toSorted((a, b) => (a.id < b.id ? -1 : 1)).map((key) => key.key),
    changedUserIds: [],
  };
}

async function setStatus(
  ctx: ShopEffectContext,
  orderId: string,
  status: 'paid' | 'needs_mapping',
  planId: string | null,
): Promise<void> {
  await ctx.tx
    .update(shopOrders)
    .set({ status, planId, updatedAt: ctx.now })
    .where(eq(shopOrders.id, orderId));
}
