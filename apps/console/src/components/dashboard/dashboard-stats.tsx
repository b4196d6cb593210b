import type { DashboardStats as DashboardStatsData } from '@latchkey/contracts';
import { Activity, AppWindow, CircleCheck, KeyRound, KeySquare, Users } from 'lucide-react';
import { formatStatCount } from '@/components/ui/stat-card.tsx';
import { StatGrid, type StatLoadState } from '@/components/ui/stat-grid.tsx';

export const STATS_LOAD_ERROR_MESSAGE = 'Statistics could not be loaded.';

/** The dashboard's four stat cards, then the unused and used licence keys. */
export function DashboardStats({
  stats,
  ...load
}: StatLoadState & { stats: DashboardStatsData | undefined }) {
  return (
    <StatGrid
      headingId="dashboard-stats-heading"
      heading="Statistics"
      errorMessage={STATS_LOAD_ERROR_MESSAGE}
      stats={stats}
      {...load}
      items={(shown) => [
        {
          title: 'Applications',
          value: formatStatCount(shown?.totalApplications),
          description: 'Total created',
          icon: AppWindow,
          testId: 'stat-applications',
        },
        {
          title: 'Total Users',
          value: formatStatCount(shown?.totalUsers),
          description: 'Across all apps',
          icon: Users,
          testId: 'stat-total-users',
        },
        {
          title: 'Active Apps',
          value: formatStatCount(shown?.activeApplications),
          description: 'Currently accepting logins',
          icon: CircleCheck,
          testId: 'stat-active-apps',
        },
        {
          title: 'Active Sessions',
          value: formatStatCount(shown?.totalActiveSessions),
          description: 'Live connections',
          icon: Activity,
          testId: 'stat-active-sessions',
        },
        {
          title: 'Unused Keys',
          value: formatStatCount(shown?.unusedLicenses),
          description: 'Licence keys to sell',
          icon: KeyRound,
          testId: 'stat-unused-keys',
        },
        {
          title: 'Used Keys',
          value: formatStatCount(shown?.usedLicenses),
          description: 'Redeemed by users',
          icon: KeySquare,
          testId: 'stat-used-keys',
        },
      ]}
    />
  );
}
