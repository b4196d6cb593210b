import { and, arrayOverlaps, eq, inArray, notInArray } from 'drizzle-orm';
import { licenseKeys, shopOrders } from '../../db/schema/index.ts';
import { banLicenseKeys } from '../licenses/index.ts';
import type { ShopReversalEvent } from './providers/shop-event.ts';
import { noEffect, orderActivity, type ShopEffect, type ShopEffectContext } from './shop-effect.ts';

/**
 * A refund or a chargeback: every order row the shop's ids name is marked so, and the keys of
 * the order (a renewal's: its first order's) are banned with the reason `refunded` or
 * `chargeback`, which takes their grants back and ends the sessions that depended on them,
 * as the owner's ban does. An order not seen yet is not an error: the event is kept with its
 * ids, and the order is recorded as reversed when it arrives.
 */
export async function applyReversalEvent(
  ctx: ShopEffectContext,
  event: ShopReversalEvent,
): Promise<ShopEffect> {
  const status = event.kind === 'chargeback' ? 'chargeback' : 'refunded';
  if (event.refs.length === 0) return noEffect('the event names no order');
  const reversed = await ctx.tx
    .update(shopOrders)
    .set({ status, updatedAt: ctx.now })
    .where(
      and(
        eq(shopOrders.connectionId, ctx.connection.id),
        arrayOverlaps(shopOrders.refs, event.refs),
        notInArray(shopOrders.status, ['refunded', 'chargeback']),
      ),
    )
    .returning();
  if (reversed.length === 0) {
    return noEffect('no order of it is known yet: it will be recorded as reversed');
  }
  const keyOrders = [...new Set(reversed.map((order) => order.renewsOrderId ?? order.id))];
  const banned = await banLicenseKeys(ctx.tx, {
    where: and(
      eq(licenseKeys.applicationId, ctx.connection.applicationId),
      inArray(licenseKeys.shopOrderId, keyOrders),
    ),
    reason: status,
    now: ctx.now,
  });
  return {
    outcome: `${status}: ${banned.length} ${banned.length === 1 ? 'key' : 'keys'} banned`,
    orderIds: reversed.map((order) => order.id),
    activity: reversed.map((order) =>
      orderActivity(ctx, 'order_refunded', order, {
        reason: status,
        bannedLicenseIds: banned
          .filter((key) => key.shopOrderId === (order.renewsOrderId ?? order.id))
          .map((key) => key.id),
      }),
    ),
    hasQueuedMail: false,
    keys: [],
    changedUserIds: [
      ...new Set(banned.flatMap((key) => (key.usedByUserId ? [key.usedByUserId] : []))),
    ],
  };
}
