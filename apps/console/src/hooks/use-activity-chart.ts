import {
  activityChartSchema,
  type ActivityChart,
  type ActivityChartRange,
} from '@latchkey/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api.ts';
import { activityChartUrl } from './owner-query-keys.ts';

/**
 * Every chart's query key starts with this: the owner event stream invalidates the prefix on
 * its `stats` and `activity` events, so every chart on screen updates live.
 */
export const ACTIVITY_CHART_QUERY_KEY = ['activity-chart'] as const;

/**
 * The live stream's `stats` and `activity` events refresh the charts; this slow re-read is the
 * floor for what no event names (a live-session sample taken each minute).
 */
export const ACTIVITY_CHART_REFRESH_INTERVAL_MS = 60_000;

/** One application's chart, or (null) all of the owner's applications for the dashboard. */
export function activityChartQueryKey(applicationId: number | null, range: ActivityChartRange) {
  return [...ACTIVITY_CHART_QUERY_KEY, applicationId ?? 'all', range] as const;
}

export function useActivityChart(applicationId: number | null, range: ActivityChartRange) {
  return useQuery({
    queryKey: activityChartQueryKey(applicationId, range),
    queryFn: async (): Promise<ActivityChart> => {
      const response = await apiRequest('GET', activityChartUrl(applicationId, range));
      return activityChartSchema.parse(await response.json());
    },
    // Switching range keeps the last chart on screen until the next one is in.
    placeholderData: keepPreviousData,
    refetchInterval: ACTIVITY_CHART_REFRESH_INTERVAL_MS,
  });
}
