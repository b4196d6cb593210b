import { dashboardStatsSchema } from '@latchkey/contracts';
import { useQuery } from '@tanstack/react-query';
import { getQueryFn } from '@/lib/api.ts';
import { DASHBOARD_STATS_QUERY_KEY } from './owner-query-keys.ts';

export function useDashboardStats() {
  return useQuery({
    queryKey: DASHBOARD_STATS_QUERY_KEY,
    queryFn: getQueryFn({ on401: 'throw', schema: dashboardStatsSchema }),
  });
}
