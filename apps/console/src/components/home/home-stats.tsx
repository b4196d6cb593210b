import { Crown, KeyRound, ShieldCheck, Users } from 'lucide-react';
import { STATS_LOAD_ERROR_MESSAGE } from '@/components/dashboard/dashboard-stats.tsx';
import { useDashboardStats } from '@/hooks/use-dashboard-stats.ts';
import { countStat, StatGrid, toStatLoadState } from '@/components/ui/stat-grid.tsx';

/** The account type shows "Premium" unless the server says otherwise. */
export const DEFAULT_ACCOUNT_TYPE = 'Premium';

export function HomeStats() {
  const statsQuery = useDashboardStats();

  return (
    <StatGrid
      headingId="stats-heading"
      heading="Statistics"
      errorMessage={STATS_LOAD_ERROR_MESSAGE}
      stats={statsQuery.data}
      {...toStatLoadState(statsQuery)}
      items={(shown) => [
        countStat('Total Users', shown?.totalUsers, 'Across all applications', Users),
        countStat('API Keys', shown?.totalApiKeys, 'total generated', KeyRound),
        countStat('Active Keys', shown?.activeApiKeys, 'Currently in use', ShieldCheck),
        {
          title: 'Account Type',
          value: shown?.accountType || DEFAULT_ACCOUNT_TYPE,
          description: 'Your account level',
          icon: Crown,
          testId: 'stat-account-type',
        },
      ]}
    />
  );
}
