import { dashboardStatsSchema } from '@latchkey/contracts';
import { useQuery } from '@tanstack/react-query';
import { getQueryFn } from '@/lib/api.ts';

export const DASHBOARD_STATS_QUERY_KEY = ['/api/dashboard/stats'] as const;

export function useDashboardStats() {
  return useQuery({
    queryKey: DASHBOARD_STATS_QUERY_KEY,
    queryFn: getQueryFn({ on401: 'throw', schema: dashboardStatsSchema }),
  });
}
