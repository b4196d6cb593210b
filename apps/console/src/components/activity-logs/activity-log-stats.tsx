import type { ActivityLogStats as ActivityLogStatsData } from '@latchkey/contracts';
import { Activity, CircleCheck, CircleX, Globe } from 'lucide-react';
import { formatStatCount } from '@/components/ui/stat-card.tsx';
import { StatGrid } from '@/components/ui/stat-grid.tsx';

export const ACTIVITY_STATS_LOAD_ERROR = 'Could not load the event statistics.';

/**
 * Spec doc 2 §2: four cards computed over the filtered list, every page of it. Figures that
 * failed to load read as unknown, never as a stale or made-up number.
 */
export function ActivityLogStats({
  stats,
  isLoading,
  isError,
  isRetrying,
  onRetry,
}: {
  stats: ActivityLogStatsData | undefined;
  isLoading: boolean;
  isError: boolean;
  isRetrying: boolean;
  onRetry: () => void;
}) {
  const shown = isError ? undefined : stats;
  return (
    <StatGrid
      headingId="activity-stats-heading"
      heading="Statistics of the listed events"
      isLoading={isLoading}
      error={isError ? { message: ACTIVITY_STATS_LOAD_ERROR, isRetrying, onRetry } : undefined}
      items={[
        {
          title: 'Total Events',
          value: formatStatCount(shown?.totalEvents),
          description: 'Matching the filters',
          icon: Activity,
          testId: 'activity-stat-total',
        },
        {
          title: 'Successful',
          value: formatStatCount(shown?.successful),
          description: 'Registrations and logins',
          icon: CircleCheck,
          testId: 'activity-stat-successful',
        },
        {
          title: 'Failed',
          value: formatStatCount(shown?.failed),
          description: 'Refused or blocked',
          icon: CircleX,
          testId: 'activity-stat-failed',
        },
        {
          title: 'Unique IPs',
          value: formatStatCount(shown?.uniqueIps),
          description: 'Distinct client addresses',
          icon: Globe,
          testId: 'activity-stat-unique-ips',
        },
      ]}
    />
  );
}
