import { applicationStatsSchema, type ApplicationStats } from '@latchkey/contracts';
import { useQuery } from '@tanstack/react-query';
import { ApiError, apiRequest } from '@/lib/api.ts';
import { useLiveAwarePolling } from '@/lib/owner-events.ts';
import { applicationStatsQueryKey } from './owner-query-keys.ts';

/**
 * The management page's live numbers poll every 5 seconds; with the live stream open its
 * `stats` events refresh them instead.
 */
export const APPLICATION_STATS_POLL_INTERVAL_MS = 5000;

/** The stats' load error: "Failed to fetch stats: {status}". */
export function toStatsFetchError(error: unknown): Error {
  return new Error(
    error instanceof ApiError ? `Failed to fetch stats: ${error.status}` : 'Failed to fetch stats',
  );
}

async function fetchApplicationStats(applicationId: number): Promise<ApplicationStats> {
  try {
    const response = await apiRequest('GET', `/api/applications/${applicationId}/stats`);
    return applicationStatsSchema.parse(await response.json());
  } catch (error) {
    throw toStatsFetchError(error);
  }
}

export function useApplicationStats(applicationId: number | null) {
  const refetchInterval = useLiveAwarePolling(APPLICATION_STATS_POLL_INTERVAL_MS);
  return useQuery({
    queryKey: applicationStatsQueryKey(applicationId ?? 0),
    queryFn: () => fetchApplicationStats(applicationId!),
    enabled: applicationId !== null,
    // Polling pauses while the tab is hidden (TanStack's default), so idle tabs cost nothing.
    refetchInterval,
  });
}
