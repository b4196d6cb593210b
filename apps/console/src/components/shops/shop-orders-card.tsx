import {
  pagingLimits,
  shopOrderStatuses,
  type ShopOrder,
  type ShopOrderStatus,
} from '@latchkey/contracts';
import { ReceiptText, SearchX } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { DataTable } from '@/components/ui/data-table.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { labelledOptions, OptionSelect } from '@/components/ui/option-select.tsx';
import { PagedQueryView } from '@/components/ui/paged-query-view.tsx';
import { RefreshButton } from '@/components/ui/refresh-button.tsx';
import { SearchInput } from '@/components/ui/search-input.tsx';
import { SectionCard } from '@/components/ui/section-card.tsx';
import {
  applicationShopConnectionsQueryKey,
  applicationShopOrdersQueryKey,
} from '@/hooks/owner-query-keys.ts';
import { useDialogTarget } from '@/hooks/use-dialog-target.ts';
import { useMediaQuery } from '@/hooks/use-media-query.ts';
import { getErrorToastMessage } from '@/hooks/use-owner-mutation.ts';
import { SHOP_ORDERS_FETCH_ERROR, useShopOrders } from '@/hooks/use-shops.ts';
import { SHOP_ORDER_STATUS_LABELS } from './shop-display.ts';
import { ShopOrderCards } from './shop-order-cards.tsx';
import { ShopOrderDialog } from './shop-order-dialog.tsx';
import { shopOrdersTable } from './shop-orders-table.tsx';

/** Below Tailwind's md breakpoint the eight columns do not fit: each order is a card instead. */
export const ORDER_CARDS_MEDIA_QUERY = '(max-width: 767.98px)';

/** Radix reserves '' for "no value": the filters' "all" choice. */
const ALL = 'all';

export type TestModeFilter = 'true' | 'false' | undefined;

const TEST_MODE_LABELS = { false: 'Live orders', true: 'Test orders' } as const;

/** The Orders card's list state, held by the tab so a connection can point at its waiting orders. */
export interface ShopOrdersListState {
  page: number;
  setPage: (page: number) => void;
  search: string;
  setSearch: (search: string) => void;
  settledSearch: string;
  status: ShopOrderStatus | undefined;
  setStatus: (status: ShopOrderStatus | undefined) => void;
  testMode: TestModeFilter;
  setTestMode: (testMode: TestModeFilter) => void;
}

/** The orders the application's shops sent, newest first, searched and filtered by the server. */
export function ShopOrdersCard({
  applicationId,
  list,
}: {
  applicationId: number;
  list: ShopOrdersListState;
}) {
  const id = useId();
  const queryClient = useQueryClient();
  const { status, testMode } = list;
  const ordersQuery = useShopOrders(applicationId, {
    page: list.page,
    search: list.settledSearch,
    status,
    testMode,
  });
  const opening = useDialogTarget<ShopOrder>();
  const isPhoneLayout = useMediaQuery(ORDER_CARDS_MEDIA_QUERY);
  const isFiltered =
    list.settledSearch.trim() !== '' || status !== undefined || testMode !== undefined;

  return (
    <>
      <SectionCard
        id="shop-orders"
        title="Orders"
        description="What the connected shops sold, newest first, with the keys each order minted. Open an order for its keys and events."
        contentClassName="grid min-w-0 gap-4"
      >
        <div
          role="search"
          aria-label="Filter orders"
          className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_11rem_10rem_auto] sm:items-end"
        >
          <SearchInput
            value={list.search}
            onChange={list.setSearch}
            label="Search orders"
            placeholder="Buyer e-mail or order id..."
            maxLength={pagingLimits.search}
          />
          <FormField htmlFor={`${id}-status`} label="Status">
            <OptionSelect<ShopOrderStatus | typeof ALL>
              id={`${id}-status`}
              value={status ?? ALL}
              onValueChange={(value) => list.setStatus(value === ALL ? undefined : value)}
              allOption={{ value: ALL, label: 'All statuses' }}
              options={labelledOptions(shopOrderStatuses, SHOP_ORDER_STATUS_LABELS)}
            />
          </FormField>
          <FormField htmlFor={`${id}-mode`} label="Mode">
            <OptionSelect<'true' | 'false' | typeof ALL>
              id={`${id}-mode`}
              value={testMode ?? ALL}
              onValueChange={(value) => list.setTestMode(value === ALL ? undefined : value)}
              allOption={{ value: ALL, label: 'Live and test' }}
              options={labelledOptions(['false', 'true'] as const, TEST_MODE_LABELS)}
            />
          </FormField>
          <RefreshButton
            isRefreshing={ordersQuery.isFetching}
            onRefresh={() => {
              // Shops deliver on their own: a new order may also be one a connection now counts
              // as waiting for a mapping, so both are read again.
              void queryClient.invalidateQueries({
                queryKey: applicationShopOrdersQueryKey(applicationId),
              });
              void queryClient.invalidateQueries({
                queryKey: applicationShopConnectionsQueryKey(applicationId),
              });
            }}
          >
            Refresh
          </RefreshButton>
        </div>
        <PagedQueryView
          query={ordersQuery}
          pagerLabel="Order pages"
          onPageChange={list.setPage}
          loadingLabel="Loading orders"
          errorTitle="Error loading orders"
          describeError={(error) => getErrorToastMessage(error, SHOP_ORDERS_FETCH_ERROR)}
          empty={
            isFiltered ? (
              <EmptyState
                icon={SearchX}
                title="No matching orders"
                description="No order has this status and mode with a buyer address or order id containing this text."
              />
            ) : (
              <EmptyState
                icon={ReceiptText}
                title="No orders yet"
                description="Orders appear here when a connected shop sends a paid order, or when you send a test event."
              />
            )
          }
        >
          {(orders) =>
            isPhoneLayout ? (
              <ShopOrderCards orders={orders} onOpen={opening.open} />
            ) : (
              <DataTable table={shopOrdersTable({ onOpen: opening.open })} rows={orders} />
            )
          }
        </PagedQueryView>
      </SectionCard>
      <ShopOrderDialog
        applicationId={applicationId}
        order={opening.target}
        {...opening.dialogProps}
      />
    </>
  );
}
