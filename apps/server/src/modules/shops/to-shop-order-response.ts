import type { ShopOrder } from '@latchkey/contracts';
import type { ShopOrderRow } from '../../db/schema/index.ts';

export interface ShopOrderListRow {
  order: ShopOrderRow;
  connectionName: string;
  /** Its keys (a renewal's: its first order's). */
  licenseIds: string[] | null;
}

export function toShopOrderResponse(row: ShopOrderListRow): ShopOrder {
  const { order } = row;
  return {
    id: order.id,
    connectionId: order.connectionId,
    connectionName: row.connectionName,
    provider: order.provider,
    providerOrderId: order.providerOrderId,
    buyerEmail: order.buyerEmail,
    productId: order.productId,
    quantity: order.quantity,
    amount: order.amount,
    currency: order.currency,
    testMode: order.isTestMode,
    status: order.status,
    licenseIds: row.licenseIds ?? [],
    createdAt: order.createdAt.toISOString(),
  };
}
