import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { ShopConnection } from '@latchkey/contracts';
import type { Database } from '../../db/client.ts';
import { shopConnections, shopOrders } from '../../db/schema/index.ts';
import { loadOwnedApplication } from '../../ownership/load-owned-application.ts';
import type { ShopOwnerContext } from './shop-context.ts';
import { toShopConnectionResponse } from './to-shop-connection-response.ts';

// The outer row's id named with its table: bare, the subquery's own `id` would shadow it.
const needingMapping = sql<number>`(select count(*)::int from shop_orders o
  where o.connection_id = "shop_connections"."id" and o.status = 'needs_mapping')`;

/** An application's shop connections, oldest first, each with its orders waiting for a mapping. */
export async function listShopConnections({
  ctx,
  input,
}: {
  ctx: ShopOwnerContext;
  input: { applicationId: number };
}): Promise<ShopConnection[]> {
  const application = await loadOwnedApplication({ ctx, input });
  const rows = await ctx.db
    .select({ connection: shopConnections, needingMapping })
    .from(shopConnections)
    .where(
      and(eq(shopConnections.applicationId, application.id), isNull(shopConnections.deletedAt)),
    )
    .orderBy(asc(shopConnections.createdAt), asc(shopConnections.id));
  return rows.map((row) =>
    toShopConnectionResponse(row.connection, {
      origin: ctx.publicOrigin,
      serverSecret: ctx.serverSecret,
      ordersNeedingMapping: row.needingMapping,
    }),
  );
}

export async function countOrdersNeedingMapping(
  db: Database,
  connectionId: string,
): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(shopOrders)
    .where(and(eq(shopOrders.connectionId, connectionId), eq(shopOrders.status, 'needs_mapping')));
  return row?.count ?? 0;
}
