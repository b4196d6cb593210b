import type { DashboardStats as DashboardStatsData } from '@latchkey/contracts';
import { Activity, AppWindow, CircleCheck, KeyRound, KeySquare, Users } from 'lucide-react';
import { countStat, StatGrid, type StatLoadState } from '@/components/ui/stat-grid.tsx';

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
        countStat('Applications', shown?.totalApplications, 'Total created', AppWindow),
        countStat('Total Users', shown?.totalUsers, 'Across all apps', Users),
        countStat(
          'Active Apps',
          shown?.activeApplications,
          'Currently accepting logins',
          CircleCheck,
        ),
        countStat('Active Sessions', shown?.totalActiveSessions, 'Live connections', Activity),
        countStat('Unused Keys', shown?.unusedLicenses, 'Licence keys to sell', KeyRound),
        countStat('Used Keys', shown?.usedLicenses, 'Redeemed by users', KeySquare),
      ]}
    />
  );
}
