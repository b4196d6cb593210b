import { Activity, CircleCheck, CircleX, Globe } from 'lucide-react';
import { formatStatCount } from '@/components/ui/stat-card.tsx';
import { StatGrid } from '@/components/ui/stat-grid.tsx';
import type { ActivityLogStats as ActivityLogStatsData } from './activity-log-display.ts';

/** Spec doc 2 §2: four cards computed over the filtered list. */
export function ActivityLogStats({
  stats,
  isLoading,
}: {
  stats: ActivityLogStatsData | undefined;
  isLoading: boolean;
}) {
  return (
    <StatGrid
      headingId="activity-stats-heading"
      heading="Statistics of the listed events"
      isLoading={isLoading}
      items={[
        {
          title: 'Total Events',
          value: formatStatCount(stats?.totalEvents),
          description: 'Matching the filters',
          icon: Activity,
          testId: 'activity-stat-total',
        },
        {
          title: 'Successful',
          value: formatStatCount(stats?.successful),
          description: 'Registrations and logins',
          icon: CircleCheck,
          testId: 'activity-stat-successful',
        },
        {
          title: 'Failed',
          value: formatStatCount(stats?.failed),
          description: 'Refused or blocked',
          icon: CircleX,
          testId: 'activity-stat-failed',
        },
        {
          title: 'Unique IPs',
          value: formatStatCount(stats?.uniqueIps),
          description: 'Distinct client addresses',
          icon: Globe,
          testId: 'activity-stat-unique-ips',
        },
      ]}
    />
  );
}
