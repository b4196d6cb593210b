import { shopSalesSchema } from '@latchkey/contracts';
import { useQuery } from '@tanstack/react-query';
import { getQueryFn } from '@/lib/api.ts';
import { SHOP_SALES_QUERY_KEY } from './owner-query-keys.ts';

/** The owner's shop orders and revenue per currency, today and over thirty days. */
export function useShopSales() {
  return useQuery({
    queryKey: SHOP_SALES_QUERY_KEY,
    queryFn: getQueryFn({ on401: 'throw', schema: shopSalesSchema }),
    // Shops deliver on their own: a revisit shows what sold since.
    refetchOnMount: 'always',
  });
}
