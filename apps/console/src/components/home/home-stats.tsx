import { Crown, KeyRound, ShieldCheck, Users } from 'lucide-react';
import { STATS_LOAD_ERROR_MESSAGE } from '@/components/dashboard/dashboard-stats.tsx';
import { useDashboardStats } from '@/hooks/use-dashboard-stats.ts';
import { formatStatCount } from '@/components/ui/stat-card.tsx';
import { StatGrid, toStatLoadState } from '@/components/ui/stat-grid.tsx';

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
        {
          title: 'Total Users',
          value: formatStatCount(shown?.totalUsers),
          description: 'Across all applications',
          icon: Users,
          testId: 'stat-total-users',
        },
        {
          title: 'API Keys',
          value: formatStatCount(shown?.totalApiKeys),
          description: 'total generated',
          icon: KeyRound,
          testId: 'stat-api-keys',
        },
        {
          title: 'Active Keys',
          value: formatStatCount(shown?.activeApiKeys),
          description: 'Currently in use',
          icon: ShieldCheck,
          testId: 'stat-active-keys',
        },
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
