import { and, asc, eq, inArray, or } from 'drizzle-orm';
import { SHOP_ORDER_NOT_FOUND, type ShopOrderDetail } from '@latchkey/contracts';
import { licenseKeys, shopConnections, shopEvents, shopOrders } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { notFound } from '../../lib/errors.ts';
import {
  loadOwnedApplication,
  ownedApplicationIds,
} from '../../ownership/load-owned-application.ts';
import { orderLicenseIds } from './list-shop-orders.ts';
import { toShopOrderResponse, type ShopOrderListRow } from './to-shop-order-response.ts';

export interface ShopOrderIds {
  applicationId: number;
  orderId: string;
}

export async function loadOwnedShopOrder(
  ctx: OwnerContext,
  input: ShopOrderIds,
): Promise<ShopOrderListRow> {
  // The application first: another owner's reads "Application not found", as every route under it.
  await loadOwnedApplication({ ctx, input });
  const [row] = await ctx.db
    .select({
      order: shopOrders,
      connectionName: shopConnections.name,
      licenseIds: orderLicenseIds,
    })
    .from(shopOrders)
    .innerJoin(shopConnections, eq(shopConnections.id, shopOrders.connectionId))
    .where(
      and(
        eq(shopOrders.id, input.orderId),
        eq(shopOrders.applicationId, input.applicationId),
        inArray(shopOrders.applicationId, ownedApplicationIds(ctx, input.applicationId)),
      ),
    );
  if (!row) throw notFound(SHOP_ORDER_NOT_FOUND);
  return row;
}

/**
 * An order with the events the shop sent about it (its own and its renewals') and its keys as
 * lists show them (masked: revealing one is the licence's own reveal).
 */
export async function getShopOrder({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: ShopOrderIds;
}): Promise<ShopOrderDetail> {
  const row = await loadOwnedShopOrder(ctx, input);
  const keyOrderId = row.order.renewsOrderId ?? row.order.id;
  const [events, keys] = await Promise.all([
    ctx.db
      .select()
      .from(shopEvents)
      .where(
        and(
          eq(shopEvents.connectionId, row.order.connectionId),
          or(
            eq(shopEvents.orderId, row.order.id),
            inArray(
              shopEvents.orderId,
              ctx.db
                .select({ id: shopOrders.id })
                .from(shopOrders)
                .where(eq(shopOrders.renewsOrderId, row.order.id)),
            ),
          ),
        ),
      )
      .orderBy(asc(shopEvents.receivedAt)),
    ctx.db
      .select()
      .from(licenseKeys)
      .where(eq(licenseKeys.shopOrderId, keyOrderId))
      .orderBy(asc(licenseKeys.createdAt), asc(licenseKeys.id)),
  ]);
  return {
    ...toShopOrderResponse(row),
    events: events.map((event) => ({
      id: event.id,
      providerEventId: event.providerEventId,
      type: event.type,
      outcome: event.outcome,
      receivedAt: event.receivedAt.toISOString(),
    })),
    licenses: keys.map((key) => ({
      id: key.id,
      key: key.display,
      status: key.state,
      bannedReason: key.bannedReason,
    })),
  };
}
