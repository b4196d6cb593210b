import type { ShopOrder } from '@latchkey/contracts';
import { formatDateTime, formatShortDate } from '@/components/applications/application-display.ts';
import { formatOrderAmount } from './shop-display.ts';
import { OpenOrderButton, ShopOrderStatusBadge } from './shop-orders-table.tsx';

/**
 * The orders on a phone, one stacked card each: eight columns do not fit 390 px, and what
 * tells orders apart (the order id, its status and the buyer) must not need sideways scrolling.
 */
export function ShopOrderCards({
  orders,
  onOpen,
}: {
  orders: readonly ShopOrder[];
  onOpen: (order: ShopOrder) => void;
}) {
  return (
    <ul aria-label="Orders" className="grid gap-3">
      {orders.map((order) => (
        <li
          key={order.id}
          data-testid={`shop-order-card-${order.id}`}
          className="grid min-w-0 gap-2 rounded-lg border border-border p-3 text-sm"
        >
          <div className="flex min-w-0 items-center justify-between gap-2">
            <OpenOrderButton order={order} onOpen={onOpen} />
            <ShopOrderStatusBadge order={order} />
          </div>
          <span className="truncate">
            {order.buyerEmail ?? (
              <span className="text-muted-foreground italic">Buyer not known yet</span>
            )}
          </span>
          <div className="flex flex-wrap justify-between gap-x-4 gap-y-1 text-xs text-muted-foreground">
            <time dateTime={order.createdAt} title={formatDateTime(order.createdAt)}>
              {formatShortDate(order.createdAt)}
            </time>
            <span className="tabular-nums">
              {order.quantity} × <span className="font-mono">{order.productId}</span>
            </span>
            <span className="tabular-nums">{formatOrderAmount(order.amount, order.currency)}</span>
            <span className="tabular-nums">
              {order.licenseIds.length} {order.licenseIds.length === 1 ? 'key' : 'keys'}
            </span>
          </div>
        </li>
      ))}
    </ul>
  );
}
