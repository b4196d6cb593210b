import {
  SEARCH_COUNT_LIMIT,
  type ActivityLogStats as ActivityLogStatsData,
} from '@latchkey/contracts';
import { Activity, CircleCheck, CircleX, Globe } from 'lucide-react';
import { formatStatCount } from '@/components/ui/stat-card.tsx';
import { StatGrid } from '@/components/ui/stat-grid.tsx';

export const ACTIVITY_STATS_LOAD_ERROR = 'Could not load the event statistics.';
/** Under the three cards a search matching too many events leaves uncounted. */
export const ACTIVITY_STATS_CAPPED_DESCRIPTION = `Not counted past ${formatStatCount(SEARCH_COUNT_LIMIT)} matches`;

/**
 * Four cards computed over the filtered list, every page of it. Figures that failed to load
 * read as unknown, never as a stale or made-up number; so do those of a search matching more
 * events than the server counts, whose total reads as a floor ("10,000+").
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
  const isCapped = shown?.isCapped === true;
  const count = (value: number | null | undefined) => formatStatCount(value ?? undefined);
  return (
    <StatGrid
      headingId="activity-stats-heading"
      heading="Statistics of the listed events"
      isLoading={isLoading}
      error={isError ? { message: ACTIVITY_STATS_LOAD_ERROR, isRetrying, onRetry } : undefined}
      items={[
        {
          title: 'Total Events',
          value: `${count(shown?.totalEvents)}${isCapped ? '+' : ''}`,
          description: 'Matching the filters',
          icon: Activity,
          testId: 'activity-stat-total',
        },
        {
          title: 'Successful',
          value: count(shown?.successful),
          description: isCapped ? ACTIVITY_STATS_CAPPED_DESCRIPTION : 'Registrations and logins',
          icon: CircleCheck,
          testId: 'activity-stat-successful',
        },
        {
          title: 'Failed',
          value: count(shown?.failed),
          description: isCapped ? ACTIVITY_STATS_CAPPED_DESCRIPTION : 'Refused or blocked',
          icon: CircleX,
          testId: 'activity-stat-failed',
        },
        {
          title: 'Unique IPs',
          value: count(shown?.uniqueIps),
          description: isCapped ? ACTIVITY_STATS_CAPPED_DESCRIPTION : 'Distinct client addresses',
          icon: Globe,
          testId: 'activity-stat-unique-ips',
        },
      ]}
    />
  );
}
