import { activityLogListSchema } from '@latchkey/contracts';
import { useQuery } from '@tanstack/react-query';
import { getQueryFn } from '@/lib/api.ts';

/** Spec doc 2 §8: what the page says when the list cannot be read. */
export const ACTIVITY_LOGS_FETCH_ERROR = 'Failed to fetch activity logs';

/**
 * Events arrive from the owner's client programs, not from the console, so nothing would ever
 * invalidate this list: it is re-read every 10 s while the tab is visible.
 */
export const ACTIVITY_LOGS_REFRESH_INTERVAL_MS = 10_000;

/** GET /api/activity-logs, with `?applicationId=` when one application is chosen. */
export function activityLogsUrl(applicationId: number | null): string {
  return applicationId === null
    ? '/api/activity-logs'
    : `/api/activity-logs?${new URLSearchParams({ applicationId: String(applicationId) })}`;
}

export function useActivityLogs(applicationId: number | null) {
  return useQuery({
    queryKey: [activityLogsUrl(applicationId)],
    queryFn: getQueryFn({ on401: 'throw', schema: activityLogListSchema }),
    // Never fresh (unlike the console's default): re-read on arrival and whenever the
    // application filter comes back to a list read earlier.
    staleTime: 0,
    // Polling pauses while the tab is hidden (TanStack's default), so idle tabs cost nothing.
    refetchInterval: ACTIVITY_LOGS_REFRESH_INTERVAL_MS,
  });
}
