import {
  SEARCH_COUNT_LIMIT,
  type ActivityLogStats as ActivityLogStatsData,
} from '@latchkey/contracts';
import { Activity, CircleCheck, CircleX, Globe } from 'lucide-react';
import { formatStatCount } from '@/components/ui/stat-card.tsx';
import { StatGrid, type StatLoadState } from '@/components/ui/stat-grid.tsx';

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
  ...load
}: StatLoadState & { stats: ActivityLogStatsData | undefined }) {
  return (
    <StatGrid
      headingId="activity-stats-heading"
      heading="Statistics of the listed events"
      errorMessage={ACTIVITY_STATS_LOAD_ERROR}
      stats={stats}
      {...load}
      items={(shown) => {
        const isCapped = shown?.isCapped === true;
        return [
          {
            title: 'Total Events',
            value: `${formatStatCount(shown?.totalEvents)}${isCapped ? '+' : ''}`,
            description: 'Matching the filters',
            icon: Activity,
            testId: 'activity-stat-total',
          },
          {
            title: 'Successful',
            value: formatStatCount(shown?.successful),
            description: isCapped ? ACTIVITY_STATS_CAPPED_DESCRIPTION : 'Registrations and logins',
            icon: CircleCheck,
            testId: 'activity-stat-successful',
          },
          {
            title: 'Failed',
            value: formatStatCount(shown?.failed),
            description: isCapped ? ACTIVITY_STATS_CAPPED_DESCRIPTION : 'Refused or blocked',
            icon: CircleX,
            testId: 'activity-stat-failed',
          },
          {
            title: 'Unique IPs',
            value: formatStatCount(shown?.uniqueIps),
            description: isCapped ? ACTIVITY_STATS_CAPPED_DESCRIPTION : 'Distinct client addresses',
            icon: Globe,
            testId: 'activity-stat-unique-ips',
          },
        ];
      }}
    />
  );
}
