import type { ShopOrder } from '@latchkey/contracts';
import type { ReactNode } from 'react';
import { formatDateTime, formatShortDate } from '@/components/applications/application-display.ts';
import { Badge } from '@/components/ui/badge.tsx';
import type { DataTableDefinition } from '@/components/ui/data-table.tsx';
import {
  formatOrderAmount,
  SHOP_ORDER_STATUS_BADGES,
  SHOP_ORDER_STATUS_LABELS,
} from './shop-display.ts';

export function ShopOrderStatusBadge({ order }: { order: Pick<ShopOrder, 'status'> }) {
  return (
    <Badge variant={SHOP_ORDER_STATUS_BADGES[order.status]}>
      {SHOP_ORDER_STATUS_LABELS[order.status]}
    </Badge>
  );
}

/** The order id as a button that opens the order: how a keyboard reaches a row's detail. */
export function OpenOrderButton({
  order,
  onOpen,
  children,
}: {
  order: ShopOrder;
  onOpen: (order: ShopOrder) => void;
  children?: ReactNode;
}) {
  return (
    <button
      type="button"
      aria-label={`Open order ${order.providerOrderId}`}
      className="max-w-48 truncate rounded-sm text-left font-mono text-xs font-medium text-primary underline-offset-4 outline-none hover:underline focus-visible:ring-[3px] focus-visible:ring-ring/60"
      onClick={(event) => {
        // The row opens the order too: one opening, not two.
        event.stopPropagation();
        onOpen(order);
      }}
    >
      {children ?? order.providerOrderId}
    </button>
  );
}

function Muted({ children }: { children: string }) {
  return <span className="text-muted-foreground italic">{children}</span>;
}

/** The orders shops sent, a row a product of an order; a row (or its order id) opens it. */
export function shopOrdersTable({
  onOpen,
}: {
  onOpen: (order: ShopOrder) => void;
}): DataTableDefinition<ShopOrder> {
  return {
    label: 'Orders',
    getRowKey: (order) => order.id,
    getRowProps: (order) => ({
      'data-testid': `shop-order-row-${order.id}`,
      className: 'cursor-pointer',
      onClick: () => onOpen(order),
    }),
    columns: [
      {
        header: 'Date',
        cellClassName: 'whitespace-nowrap text-muted-foreground',
        cellProps: (order) => ({ title: formatDateTime(order.createdAt) }),
        cell: (order) => formatShortDate(order.createdAt),
      },
      {
        header: 'Order',
        cell: (order) => (
          <div className="grid gap-0.5">
            <OpenOrderButton order={order} onOpen={onOpen} />
            <span className="max-w-48 truncate text-xs text-muted-foreground">
              {order.connectionName}
              {order.testMode && ' · Test'}
            </span>
          </div>
        ),
      },
      {
        header: 'Buyer',
        cellClassName: 'max-w-56 truncate',
        cell: (order) => order.buyerEmail ?? <Muted>Not known yet</Muted>,
      },
      {
        header: 'Product',
        cellClassName: 'max-w-40 truncate font-mono text-xs',
        cellProps: (order) => ({ title: order.productId }),
        cell: (order) => order.productId,
      },
      {
        header: 'Quantity',
        headerClassName: 'text-right',
        cellClassName: 'text-right tabular-nums',
        cell: (order) => order.quantity,
      },
      {
        header: 'Amount',
        headerClassName: 'text-right',
        cellClassName: 'whitespace-nowrap text-right tabular-nums',
        cell: (order) => formatOrderAmount(order.amount, order.currency),
      },
      { header: 'Status', cell: (order) => <ShopOrderStatusBadge order={order} /> },
      {
        header: 'Keys',
        headerClassName: 'text-right',
        cellClassName: 'text-right tabular-nums',
        cell: (order) => order.licenseIds.length,
      },
    ],
  };
}
