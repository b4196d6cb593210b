import { and, eq } from 'drizzle-orm';
import {
  SHOP_ORDER_NOT_WAITING,
  SHOP_ORDER_STILL_UNMAPPED,
  type ShopOrder,
} from '@latchkey/contracts';
import { shopConnections, shopOrders } from '../../db/schema/index.ts';
import { recordOwnerWrite } from '../../audit/record-owner-write.ts';
import { AppError } from '../../lib/errors.ts';
import { writeActivityRows, type ActivityRecorder } from '../activity/index.ts';
import type { MailOutbox } from '../mail/index.ts';
import { loadOwnedShopOrder, type ShopOrderIds } from './get-shop-order.ts';
import { mintOrderKeys } from './mint-order-keys.ts';
import type { ShopOwnerContext } from './shop-context.ts';
import { toShopOrderResponse } from './to-shop-order-response.ts';

/**
 * Mints an order that was waiting for its product to be mapped, now that it is: the same
 * minting and mail as a paid event's, in one transaction with the audit entry. Only a
 * `needs_mapping` order is processed (409 otherwise), and the row is locked, so two presses
 * mint once.
 */
export async function processShopOrder({
  ctx,
  input,
  mail,
  activity,
}: {
  ctx: ShopOwnerContext;
  input: ShopOrderIds;
  mail: MailOutbox;
  activity: Pick<ActivityRecorder, 'noteWritten'>;
}): Promise<ShopOrder> {
  await loadOwnedShopOrder(ctx, input);
  const now = ctx.clock.now();
  const { effect, queued } = await ctx.db.transaction(async (tx) => {
    const [locked] = await tx
      .select({ order: shopOrders, connection: shopConnections })
      .from(shopOrders)
      .innerJoin(shopConnections, eq(shopConnections.id, shopOrders.connectionId))
      .where(
        and(eq(shopOrders.id, input.orderId), eq(shopOrders.applicationId, input.applicationId)),
      )
      .for('update', { of: shopOrders });
    if (!locked || locked.order.status !== 'needs_mapping') {
      throw new AppError('CONFLICT', SHOP_ORDER_NOT_WAITING);
    }
    const minted = await mintOrderKeys(
      {
        tx,
        connection: locked.connection,
        now,
        serverSecret: ctx.serverSecret,
        canMail: mail.isAvailable,
      },
      locked.order,
    );
    if (minted.activity.length === 0) throw new AppError('CONFLICT', SHOP_ORDER_STILL_UNMAPPED);
    await recordOwnerWrite({
      ctx: { ...ctx, db: tx },
      input: {
        action: 'shop_order_processed',
        application: { id: input.applicationId },
        target: { kind: 'shop_order', id: locked.order.id, label: locked.order.providerOrderId },
        change: { productId: locked.order.productId },
      },
    });
    return { effect: minted, queued: await writeActivityRows(tx, minted.activity) };
  });
  if (effect.hasQueuedMail) mail.wake();
  for (const record of effect.activity) activity.noteWritten(record, queued);
  return toShopOrderResponse(await loadOwnedShopOrder(ctx, input));
}
