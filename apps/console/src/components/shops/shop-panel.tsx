import type { Application, ShopOrderStatus } from '@latchkey/contracts';
import { useState } from 'react';
import { usePagedSearch } from '@/hooks/use-paged-search.ts';
import { ShopConnectionsCard } from './shop-connections-card.tsx';
import {
  ShopOrdersCard,
  type ShopOrdersListState,
  type TestModeFilter,
} from './shop-orders-card.tsx';

/**
 * The management page's Shop tab: the shops that sell the application's plans, and the orders
 * they sent. A connection's "orders need mapping" shows those orders in the list below it.
 */
export function ShopPanel({ application }: { application: Application }) {
  const paged = usePagedSearch();
  const [status, setStatus] = useState<ShopOrderStatus | undefined>();
  const [testMode, setTestMode] = useState<TestModeFilter>();
  const list: ShopOrdersListState = {
    ...paged,
    status,
    setStatus: (chosen) => {
      setStatus(chosen);
      paged.setPage(1);
    },
    testMode,
    setTestMode: (chosen) => {
      setTestMode(chosen);
      paged.setPage(1);
    },
  };

  return (
    <div className="flex flex-col gap-6">
      <ShopConnectionsCard
        application={application}
        onShowWaitingOrders={() => {
          list.setSearch('');
          list.setStatus('needs_mapping');
          setTestMode(undefined);
          document.getElementById('shop-orders')?.scrollIntoView({ block: 'start' });
        }}
      />
      <ShopOrdersCard applicationId={application.id} list={list} />
    </div>
  );
}
