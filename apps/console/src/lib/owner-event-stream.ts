import { ownerEventSchema, type OwnerEvent } from '@latchkey/contracts';
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { ACTIVITY_CHART_QUERY_KEY } from '@/hooks/use-activity-chart.ts';
import { DASHBOARD_STATS_QUERY_KEY } from '@/hooks/owner-query-keys.ts';
import {
  APPLICATIONS_QUERY_KEY,
  appUsersQueryKey,
  applicationStatsQueryKey,
} from '@/hooks/owner-query-keys.ts';
import { dispatchOwnerEvent, setOwnerEventStreamLive } from './owner-events.ts';

const STREAM_URL = '/api/events';
const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;
/**
 * Invalidations are gathered for this long: a launch can bring a hundred logins a second, and
 * each list needs one refetch for all of them, not one per login.
 */
const INVALIDATION_DELAY_MS = 300;

const isActivityLogQuery = (key: QueryKey) =>
  typeof key[0] === 'string' && key[0].startsWith('/api/activity-logs');

/**
 * The signed-in console's live stream: opens GET /api/events, applies each event to the query
 * caches (refetching what it names), hands it to onOwnerEvent's listeners, and reconnects with
 * backoff when it drops; while it is down the polling hooks poll. Answers a function that
 * stops it (sign-out).
 */
export function startOwnerEventStream(queryClient: QueryClient): () => void {
  if (typeof EventSource === 'undefined') return () => {};
  let source: EventSource | null = null;
  let retryMs = FIRST_RETRY_MS;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let isStopped = false;

  const pending = new Map<string, QueryKey | ((key: QueryKey) => boolean)>();
  let flushTimer: ReturnType<typeof setTimeout> | null = null;
  const invalidate = (name: string, target: QueryKey | ((key: QueryKey) => boolean)) => {
    pending.set(name, target);
    flushTimer ??= setTimeout(() => {
      flushTimer = null;
      for (const each of pending.values()) {
        void queryClient.invalidateQueries(
          typeof each === 'function'
            ? { predicate: (query) => each(query.queryKey) }
            : { queryKey: each },
        );
      }
      pending.clear();
    }, INVALIDATION_DELAY_MS);
  };

  const applyToCaches = (event: OwnerEvent) => {
    switch (event.type) {
      case 'activity': {
        const { applicationId } = event.data;
        invalidate('activity-logs', isActivityLogQuery);
        invalidate(`users-${applicationId}`, appUsersQueryKey(applicationId));
        invalidate(`stats-${applicationId}`, applicationStatsQueryKey(applicationId));
        invalidate('dashboard', DASHBOARD_STATS_QUERY_KEY);
        invalidate('charts', ACTIVITY_CHART_QUERY_KEY);
        return;
      }
      case 'stats': {
        const { applicationId } = event.data;
        invalidate(`stats-${applicationId}`, applicationStatsQueryKey(applicationId));
        invalidate('dashboard', DASHBOARD_STATS_QUERY_KEY);
        invalidate('charts', ACTIVITY_CHART_QUERY_KEY);
        return;
      }
      case 'app_user': {
        const { applicationId } = event.data;
        invalidate(`users-${applicationId}`, appUsersQueryKey(applicationId));
        invalidate(`stats-${applicationId}`, applicationStatsQueryKey(applicationId));
        invalidate('dashboard', DASHBOARD_STATS_QUERY_KEY);
        return;
      }
      case 'application':
        invalidate('applications', APPLICATIONS_QUERY_KEY);
        invalidate('dashboard', DASHBOARD_STATS_QUERY_KEY);
        return;
      case 'bulk_progress':
        return;
    }
  };

  const onMessage = (message: MessageEvent<string>) => {
    let event: OwnerEvent;
    try {
      event = ownerEventSchema.parse({ type: message.type, data: JSON.parse(message.data) });
    } catch {
      return; // An event type this console does not know yet (a newer server): ignored.
    }
    applyToCaches(event);
    dispatchOwnerEvent(event);
  };

  const connect = () => {
    retryTimer = null;
    if (isStopped) return;
    source = new EventSource(STREAM_URL, { withCredentials: true });
    source.addEventListener('open', () => {
      retryMs = FIRST_RETRY_MS;
      setOwnerEventStreamLive(true);
      // Whatever happened before the stream opened (while it was down, or while the page
      // loaded) is read again once; from here on, events carry it.
      invalidate('applications', APPLICATIONS_QUERY_KEY);
      invalidate('activity-logs', isActivityLogQuery);
      invalidate('dashboard', DASHBOARD_STATS_QUERY_KEY);
      invalidate('charts', ACTIVITY_CHART_QUERY_KEY);
    });
    for (const type of ownerEventSchema.options.map((option) => option.shape.type.value)) {
      source.addEventListener(type, onMessage);
    }
    source.addEventListener('error', () => {
      // EventSource's own retry is a fixed delay and stops for good on a 429 or 401: close it
      // and come back with a growing, jittered delay instead, polling meanwhile.
      source?.close();
      source = null;
      setOwnerEventStreamLive(false);
      if (isStopped) return;
      retryTimer = setTimeout(connect, retryMs * (0.5 + Math.random() / 2));
      retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
    });
  };

  connect();
  return () => {
    isStopped = true;
    source?.close();
    if (retryTimer) clearTimeout(retryTimer);
    if (flushTimer) clearTimeout(flushTimer);
    setOwnerEventStreamLive(false);
  };
}
