import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { ShopTestEventResult } from '@latchkey/contracts';
import { shopOrders } from '../../db/schema/index.ts';
import { readShopEvent } from './providers/read-shop-event.ts';
import { recordShopEvent, type ShopReceiveContext } from './receive-shop-event.ts';
import { loadOwnedShopConnection, type ShopConnectionIds } from './owned-shop-connection.ts';
import { samplePaidOrderDelivery, shopRequestOf, signShopDelivery } from './sample-shop-events.ts';
import type { ShopOwnerContext } from './shop-context.ts';
import { unsealShopSecret } from './shop-secrets.ts';
import { orderLicenseIds } from './list-shop-orders.ts';
import { toShopOrderResponse } from './to-shop-order-response.ts';

/**
 * A realistic paid order of the connection's shop, signed with the connection's own secret
 * (Gumroad's: its URL token) and run through the same verification and processing as a
 * delivery from the shop, in test mode: the owner sees the keys minted and the mail sent, and
 * a wrong secret fails here as it would there. The order is marked test.
 */
export async function sendShopTestEvent({
  ctx,
  input,
}: {
  ctx: ShopOwnerContext & ShopReceiveContext;
  input: ShopConnectionIds & { productId: string; buyerEmail: string };
}): Promise<ShopTestEventResult> {
  const connection = await loadOwnedShopConnection(ctx, input);
  const nowSeconds = Math.floor(ctx.clock.now().getTime() / 1000);
  const orderId = `test_${randomBytes(6).toString('hex')}`;
  const delivery = samplePaidOrderDelivery(connection.provider, {
    orderId,
    productId: input.productId,
    quantity: 1,
    buyerEmail: input.buyerEmail,
    amount: 1900,
    currency: 'USD',
  });
  const secret =
    connection.secretSealed && unsealShopSecret(connection.secretSealed, ctx.serverSecret);
  const urlToken =
    connection.urlTokenSealed && unsealShopSecret(connection.urlTokenSealed, ctx.serverSecret);
  const headers = await signShopDelivery(connection.provider, delivery, secret ?? '', nowSeconds);
  const event = await readShopEvent(shopRequestOf(delivery, headers, { urlToken, nowSeconds }), {
    provider: connection.provider,
    secret,
    urlToken,
  });
  const testEvent = event.kind === 'paid' ? { ...event, isTest: true } : event;
  await recordShopEvent(ctx, connection, testEvent);
  const [order] = await ctx.db
    .select({ order: shopOrders, licenseIds: orderLicenseIds })
    .from(shopOrders)
    .where(
      and(eq(shopOrders.connectionId, connection.id), eq(shopOrders.providerOrderId, orderId)),
    );
  return {
    statusCode: 200,
    order: order ? toShopOrderResponse({ ...order, connectionName: connection.name }) : null,
  };
}
