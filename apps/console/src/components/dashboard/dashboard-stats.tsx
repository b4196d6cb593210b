import type { DashboardStats as DashboardStatsData } from '@latchkey/contracts';
import { Activity, AppWindow, CircleCheck, KeyRound, KeySquare, Users } from 'lucide-react';
import { formatStatCount } from '@/components/ui/stat-card.tsx';
import { StatGrid } from '@/components/ui/stat-grid.tsx';

export const STATS_LOAD_ERROR_MESSAGE = 'Statistics could not be loaded.';

/** The dashboard's four stat cards, then the unused and used licence keys. */
export function DashboardStats({
  stats: loadedStats,
  isLoading,
  isError,
  isRetrying,
  onRetry,
}: {
  stats: DashboardStatsData | undefined;
  isLoading: boolean;
  isError: boolean;
  isRetrying: boolean;
  onRetry: () => void;
}) {
  // After a failed refetch the last figures may no longer be true: show them as unknown.
  const stats = isError ? undefined : loadedStats;
  return (
    <StatGrid
      headingId="dashboard-stats-heading"
      heading="Statistics"
      isLoading={isLoading}
      error={isError ? { message: STATS_LOAD_ERROR_MESSAGE, isRetrying, onRetry } : undefined}
      items={[
        {
          title: 'Applications',
          value: formatStatCount(stats?.totalApplications),
          description: 'Total created',
          icon: AppWindow,
          testId: 'stat-applications',
        },
        {
          title: 'Total Users',
          value: formatStatCount(stats?.totalUsers),
          description: 'Across all apps',
          icon: Users,
          testId: 'stat-total-users',
        },
        {
          title: 'Active Apps',
          value: formatStatCount(stats?.activeApplications),
          description: 'Currently accepting logins',
          icon: CircleCheck,
          testId: 'stat-active-apps',
        },
        {
          title: 'Active Sessions',
          value: formatStatCount(stats?.totalActiveSessions),
          description: 'Live connections',
          icon: Activity,
          testId: 'stat-active-sessions',
        },
        {
          title: 'Unused Keys',
          value: formatStatCount(stats?.unusedLicenses),
          description: 'Licence keys to sell',
          icon: KeyRound,
          testId: 'stat-unused-keys',
        },
        {
          title: 'Used Keys',
          value: formatStatCount(stats?.usedLicenses),
          description: 'Redeemed by users',
          icon: KeySquare,
          testId: 'stat-used-keys',
        },
      ]}
    />
  );
}
