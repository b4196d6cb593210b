import { and, eq, gte, inArray, isNotNull, sql } from 'drizzle-orm';
import type { ShopSales, ShopSalesRow } from '@latchkey/contracts';
import { shopOrders } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { ownedApplicationIds } from '../../ownership/load-owned-application.ts';

const DAY_MS = 86_400_000;

/**
 * Orders and revenue per currency across the owner's applications, today (UTC) and over the
 * last thirty days. Test-mode orders are left out: they are not money. A refunded or disputed
 * order still counts as an order, and its amount comes off the revenue.
 */
export async function getShopSales({ ctx }: { ctx: OwnerContext }): Promise<ShopSales> {
  const now = ctx.clock.now();
  const midnight = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS);
  const since = new Date(now.getTime() - 30 * DAY_MS);
  const isReversed = sql`${shopOrders.status} in ('refunded', 'chargeback')`;
  const rows = await ctx.db
    .select({
      currency: sql<string>`${shopOrders.currency}`,
      isToday: sql<boolean>`${shopOrders.createdAt} >= ${midnight.toISOString()}::timestamptz`,
      orders: sql<number>`count(*)::int`,
      revenue: sql<number>`coalesce(sum(${shopOrders.amount}) filter (where not ${isReversed}), 0)::bigint`,
      refunds: sql<number>`(count(*) filter (where ${isReversed}))::int`,
    })
    .from(shopOrders)
    .where(
      and(
        inArray(shopOrders.applicationId, ownedApplicationIds(ctx)),
        gte(shopOrders.createdAt, since),
        eq(shopOrders.isTestMode, false),
        isNotNull(shopOrders.currency),
        inArray(shopOrders.status, ['paid', 'renewed', 'refunded', 'chargeback']),
      ),
    )
    .groupBy(sql`1`, sql`2`);
  const sum = (of: typeof rows): ShopSalesRow[] => {
    const byCurrency = new Map<string, ShopSalesRow>();
    for (const row of of) {
      const total = byCurrency.get(row.currency) ?? {
        currency: row.currency,
        orders: 0,
        revenue: 0,
        refunds: 0,
      };
      total.orders += row.orders;
      total.revenue += Number(row.revenue);
      total.refunds += row.refunds;
      byCurrency.set(row.currency, total);
    }
    return [...byCurrency.values()].sort((a, b) => b.revenue - a.revenue);
  };
  return { today: sum(rows.filter((row) => row.isToday)), last30Days: sum(rows) };
}
