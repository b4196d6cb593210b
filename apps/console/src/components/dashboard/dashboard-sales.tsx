import type { ShopSales, ShopSalesRow } from '@latchkey/contracts';
import type { UseQueryResult } from '@tanstack/react-query';
import { ShoppingCart } from 'lucide-react';
import { formatOrderAmount } from '@/components/shops/shop-display.ts';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { QueryView } from '@/components/ui/query-view.tsx';
import { SectionCard } from '@/components/ui/section-card.tsx';

export const SALES_FETCH_ERROR = 'Failed to fetch sales';
export const NO_SALES_TITLE = 'No sales in the last 30 days';
export const NO_SALES_DESCRIPTION =
  'Connect a shop on an application\u2019s Shop tab: its paid orders mint and mail keys, and show here.';

const orderCount = (count: number) =>
  `${count.toLocaleString('en-US')} ${count === 1 ? 'order' : 'orders'}`;

/**
 * What the shops sold across the owner's applications, one line per currency: today's orders
 * and revenue beside the last thirty days' (revenue less refunds; test orders left out). One
 * currency per line rather than a table, so a phone shows it whole.
 */
export function DashboardSales({ query }: { query: UseQueryResult<ShopSales> }) {
  return (
    <SectionCard
      title="Sales"
      description="Orders your shops sent, per currency: today (UTC) and the last 30 days. Refunds are taken off; test orders are left out."
      icon={ShoppingCart}
    >
      <QueryView
        query={query}
        loadingLabel="Loading sales"
        loadingClassName="grid gap-3"
        skeletons={['h-16 w-full', 'h-16 w-full']}
        errorTitle="Sales could not be loaded"
        fetchErrorMessage={SALES_FETCH_ERROR}
      >
        {(sales) =>
          sales.last30Days.length === 0 ? (
            <EmptyState
              icon={ShoppingCart}
              title={NO_SALES_TITLE}
              description={NO_SALES_DESCRIPTION}
            />
          ) : (
            <ul className="grid gap-3" aria-label="Sales per currency">
              {sales.last30Days.map((month) => (
                <SalesLine
                  key={month.currency}
                  month={month}
                  today={sales.today.find((row) => row.currency === month.currency)}
                />
              ))}
            </ul>
          )
        }
      </QueryView>
    </SectionCard>
  );
}

function SalesLine({ month, today }: { month: ShopSalesRow; today: ShopSalesRow | undefined }) {
  return (
    <li
      data-testid={`sales-${month.currency}`}
      className="grid gap-2 rounded-lg border border-border p-3 sm:grid-cols-[6rem_1fr_1fr] sm:items-center"
    >
      <span className="font-mono text-sm font-semibold">{month.currency}</span>
      <div className="flex flex-col">
        <span className="text-xs text-muted-foreground">Today</span>
        <span className="font-semibold">
          {formatOrderAmount(today?.revenue ?? 0, month.currency)}
        </span>
        <span className="text-xs text-muted-foreground">{orderCount(today?.orders ?? 0)}</span>
      </div>
      <div className="flex flex-col">
        <span className="text-xs text-muted-foreground">Last 30 days</span>
        <span className="font-semibold">{formatOrderAmount(month.revenue, month.currency)}</span>
        <span className="text-xs text-muted-foreground">
          {orderCount(month.orders)}
          {month.refunds > 0 ? `, ${month.refunds.toLocaleString('en-US')} refunded` : ''}
        </span>
      </div>
    </li>
  );
}
