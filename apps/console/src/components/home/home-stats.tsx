import { Crown, KeyRound, ShieldCheck, Users } from 'lucide-react';
import { STATS_LOAD_ERROR_MESSAGE } from '@/components/dashboard/dashboard-stats.tsx';
import { useDashboardStats } from '@/hooks/use-dashboard-stats.ts';
import { formatStatCount } from '@/components/ui/stat-card.tsx';
import { StatGrid } from '@/components/ui/stat-grid.tsx';

/** The account type shows "Premium" unless the server says otherwise. */
export const DEFAULT_ACCOUNT_TYPE = 'Premium';

export function HomeStats() {
  const { data, isPending, isError, isFetching, refetch } = useDashboardStats();
  // After a failed refetch the last figures may no longer be true: show them as unknown.
  const stats = isError ? undefined : data;

  return (
    <StatGrid
      headingId="stats-heading"
      heading="Statistics"
      isLoading={isPending}
      error={
        isError
          ? {
              message: STATS_LOAD_ERROR_MESSAGE,
              isRetrying: isFetching,
              onRetry: () => void refetch(),
            }
          : undefined
      }
      items={[
        {
          title: 'Total Users',
          value: formatStatCount(stats?.totalUsers),
          description: 'Across all applications',
          icon: Users,
          testId: 'stat-total-users',
        },
        {
          title: 'API Keys',
          value: formatStatCount(stats?.totalApiKeys),
          description: 'total generated',
          icon: KeyRound,
          testId: 'stat-api-keys',
        },
        {
          title: 'Active Keys',
          value: formatStatCount(stats?.activeApiKeys),
          description: 'Currently in use',
          icon: ShieldCheck,
          testId: 'stat-active-keys',
        },
        {
          title: 'Account Type',
          value: stats?.accountType || DEFAULT_ACCOUNT_TYPE,
          description: 'Your account level',
          icon: Crown,
          testId: 'stat-account-type',
        },
      ]}
    />
  );
}
