import { and, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { Page, PageRequest, ShopOrderStatus } from '@latchkey/contracts';
import { countCapped } from '../../db/count-capped.ts';
import { shopConnections, shopOrders } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { containsPattern } from '../../lib/contains-pattern.ts';
import { loadOwnedApplication } from '../../ownership/load-owned-application.ts';
import type { ShopOrderListRow } from './to-shop-order-response.ts';

export interface ShopOrderFilter {
  search?: string | undefined;
  status?: ShopOrderStatus | undefined;
  testMode?: boolean | undefined;
  connectionId?: string | undefined;
}

/**
 * The keys of an order row: its own, or for a renewal its first order's. The outer row's
 * columns are named with their table: drizzle leaves them bare in a one-table select, where
 * the subquery's own `id` would shadow them.
 */
export const orderLicenseIds = sql<string[] | null>`(
  select array_agg(k.id order by k.created_at, k.id) from license_keys k
  where k.shop_order_id = coalesce("shop_orders"."renews_order_id", "shop_orders"."id"))`;

/**
 * One page of an application's orders, newest first: by status, test mode, connection, and a
 * search of the buyer's address or the shop's order id.
 */
export async function listShopOrders({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: { applicationId: number } & PageRequest & ShopOrderFilter;
}): Promise<Page<ShopOrderListRow>> {
  const application = await loadOwnedApplication({ ctx, input });
  const conditions: (SQL | undefined)[] = [eq(shopOrders.applicationId, application.id)];
  if (input.status) conditions.push(eq(shopOrders.status, input.status));
  if (input.testMode !== undefined) conditions.push(eq(shopOrders.isTestMode, input.testMode));
  if (input.connectionId) conditions.push(eq(shopOrders.connectionId, input.connectionId));
  if (input.search) {
    const pattern = containsPattern(input.search);
    conditions.push(
      or(ilike(shopOrders.buyerEmail, pattern), ilike(shopOrders.providerOrderId, pattern)),
    );
  }
  const where = and(...conditions)!;
  const [rows, total] = await Promise.all([
    ctx.db
      .select({
        order: shopOrders,
        connectionName: shopConnections.name,
        licenseIds: orderLicenseIds,
      })
      .from(shopOrders)
      .innerJoin(shopConnections, eq(shopConnections.id, shopOrders.connectionId))
      .where(where)
      .orderBy(desc(shopOrders.createdAt), desc(shopOrders.id))
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    countCapped(ctx.db, shopOrders, where),
  ]);
  return { rows, totalCount: total.count, isTotalCapped: total.isCapped };
}
