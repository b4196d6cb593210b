import {
  activityLogListSchema,
  activityLogStatsSchema,
  type ActivityEvent,
  type ActivityLog,
} from '@latchkey/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api.ts';
import { useLiveAwarePolling } from '@/lib/owner-events.ts';
import { toPagedList, toPageQueryString, type PagedList } from '@/lib/paged-list.ts';

/** What the page says when the list cannot be read. */
export const ACTIVITY_LOGS_FETCH_ERROR = 'Failed to fetch activity logs';

/**
 * Events arrive from the owner's client programs, not from the console: the live stream's
 * `activity` events refresh the list, and while the stream is down it is re-read every 10 s
 * while the tab is visible.
 */
export const ACTIVITY_LOGS_REFRESH_INTERVAL_MS = 10_000;

/** What the server filters the log by; null and '' mean "all". */
export interface ActivityLogQuery {
  applicationId: number | null;
  event: ActivityEvent | null;
  search: string;
}

function filterQuery({ applicationId, event, search }: ActivityLogQuery) {
  return {
    applicationId: applicationId ?? undefined,
    event: event ?? undefined,
    search: search.trim(),
  };
}

/** GET /api/activity-logs with the filters and page; no query string for page 1 of everything. */
export function activityLogsUrl(query: ActivityLogQuery, page = 1): string {
  return `/api/activity-logs${toPageQueryString({ ...filterQuery(query), page })}`;
}

/** GET /api/activity-logs/stats with the same filters: the cards count every page. */
export function activityLogStatsUrl(query: ActivityLogQuery): string {
  return `/api/activity-logs/stats${toPageQueryString(filterQuery(query))}`;
}

const pollingOptions = {
  // Never fresh (unlike the console's default): re-read on arrival and whenever the
  // filters come back to a list read earlier.
  staleTime: 0,
  // The previous page or figures stay on screen while the next ones load.
  placeholderData: keepPreviousData,
} as const;

/** One page of the owner's activity log, filtered and searched by the server. */
export function useActivityLogs(query: ActivityLogQuery, page: number) {
  const url = activityLogsUrl(query, page);
  // Polling pauses while the tab is hidden (TanStack's default), so idle tabs cost nothing.
  const refetchInterval = useLiveAwarePolling(ACTIVITY_LOGS_REFRESH_INTERVAL_MS);
  return useQuery({
    queryKey: [url],
    queryFn: async (): Promise<PagedList<ActivityLog>> => {
      const response = await apiRequest('GET', url);
      return toPagedList(response, activityLogListSchema.parse(await response.json()));
    },
    ...pollingOptions,
    refetchInterval,
  });
}

/** The four stat cards over every log the filters match (not only the page shown). */
export function useActivityLogStats(query: ActivityLogQuery) {
  const url = activityLogStatsUrl(query);
  const refetchInterval = useLiveAwarePolling(ACTIVITY_LOGS_REFRESH_INTERVAL_MS);
  return useQuery({
    queryKey: [url],
    queryFn: async () => activityLogStatsSchema.parse(await (await apiRequest('GET', url)).json()),
    ...pollingOptions,
    refetchInterval,
  });
}
