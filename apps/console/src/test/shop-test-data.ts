import type { ShopConnection, ShopOrder, ShopOrderDetail } from '@latchkey/contracts';

/** A connection as GET …/shop-connections lists it: number `index` of application 7, Sellix. */
export function createShopConnection(
  index: number,
  overrides: Partial<ShopConnection> = {},
): ShopConnection {
  return {
    id: `30000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    publicId: `pub_${String(index).padStart(20, '0')}`,
    provider: 'sellix',
    name: `Store ${index}`,
    testMode: false,
    webhookUrl: `https://latchkey.example.com/api/shops/pub_${String(index).padStart(20, '0')}`,
    products: [],
    secretHint: '…c0de',
    hasApiKey: false,
    ordersNeedingMapping: 0,
    createdAt: '2026-11-01T12:00:00.000Z',
    updatedAt: '2026-11-01T12:00:00.000Z',
    ...overrides,
  };
}

/** An order as GET …/orders lists it: number `index`, paid, of connection 1, one key. */
export function createShopOrder(index: number, overrides: Partial<ShopOrder> = {}): ShopOrder {
  return {
    id: `40000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    connectionId: createShopConnection(1).id,
    connectionName: 'Store 1',
    provider: 'sellix',
    providerOrderId: `order-${index}`,
    buyerEmail: `buyer${index}@example.com`,
    productId: 'prod-pro',
    quantity: 1,
    amount: 1900,
    currency: 'USD',
    testMode: false,
    status: 'paid',
    licenseIds: [`50000000-0000-4000-8000-${String(index).padStart(12, '0')}`],
    createdAt: '2026-11-02T09:30:00.000Z',
    ...overrides,
  };
}

/** An order's detail: its listed fields, one event and its keys, masked. */
export function createShopOrderDetail(order: ShopOrder): ShopOrderDetail {
  return {
    ...order,
    events: [
      {
        id: '60000000-0000-4000-8000-000000000001',
        providerEventId: `product:dynamic:${order.providerOrderId}`,
        type: 'product:dynamic',
        outcome: order.status === 'needs_mapping' ? 'needs mapping' : 'minted 1 key',
        receivedAt: order.createdAt,
      },
    ],
    licenses: order.licenseIds.map((id) => ({
      id,
      key: '••••-••••-••••-WXYZ',
      status: 'unused',
      bannedReason: null,
    })),
  };
}
