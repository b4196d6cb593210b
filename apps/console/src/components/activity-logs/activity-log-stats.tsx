import { Activity, CircleCheck, CircleX, Globe } from 'lucide-react';
import { StatCard } from '@/components/home/stat-card.tsx';
import type { ActivityLogStats as ActivityLogStatsData } from './activity-log-display.ts';

const countFormat = new Intl.NumberFormat('en-US');

/** Spec doc 2 §2: four cards computed over the filtered list. */
export function ActivityLogStats({
  stats,
  isLoading,
}: {
  stats: ActivityLogStatsData | undefined;
  isLoading: boolean;
}) {
  const format = (count: number | undefined) =>
    count === undefined ? '—' : countFormat.format(count);

  return (
    <section aria-labelledby="activity-stats-heading" aria-busy={isLoading}>
      <h2 id="activity-stats-heading" className="sr-only">
        Statistics of the listed events
      </h2>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <StatCard
          title="Total Events"
          value={format(stats?.totalEvents)}
          description="Matching the filters"
          icon={Activity}
          isLoading={isLoading}
          testId="activity-stat-total"
        />
        <StatCard
          title="Successful"
          value={format(stats?.successful)}
          description="Registrations and logins"
          icon={CircleCheck}
          isLoading={isLoading}
          testId="activity-stat-successful"
        />
        <StatCard
          title="Failed"
          value={format(stats?.failed)}
          description="Refused or blocked"
          icon={CircleX}
          isLoading={isLoading}
          testId="activity-stat-failed"
        />
        <StatCard
          title="Unique IPs"
          value={format(stats?.uniqueIps)}
          description="Distinct client addresses"
          icon={Globe}
          isLoading={isLoading}
          testId="activity-stat-unique-ips"
        />
      </div>
    </section>
  );
}
