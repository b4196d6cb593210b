import { History, SearchX } from 'lucide-react';
import { useMemo, useState } from 'react';
import {
  computeActivityLogStats,
  filterActivityLogs,
  hasActiveFilters,
  NO_ACTIVITY_LOG_FILTERS,
  type ActivityLogFilters as ActivityLogFiltersValue,
} from '@/components/activity-logs/activity-log-display.ts';
import { ActivityLogFilters } from '@/components/activity-logs/activity-log-filters.tsx';
import { ActivityLogStats } from '@/components/activity-logs/activity-log-stats.tsx';
import { ActivityLogsTable } from '@/components/activity-logs/activity-logs-table.tsx';
import { PageHeading } from '@/components/layout/page-heading.tsx';
import { SignedInLayout } from '@/components/layout/signed-in-layout.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '@/components/ui/card.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { FormError } from '@/components/ui/form-field.tsx';
import { LoadErrorState } from '@/components/ui/load-error-state.tsx';
import { RefreshButton } from '@/components/ui/refresh-button.tsx';
import { TableSkeleton } from '@/components/ui/table-skeleton.tsx';
import { ACTIVITY_LOGS_FETCH_ERROR, useActivityLogs } from '@/hooks/use-activity-logs.ts';
import { useApplications } from '@/hooks/use-applications.ts';
import { getServerMessage } from '@/hooks/use-owner-mutation.ts';

export const NO_EVENTS_MESSAGE = 'No authentication events have been recorded yet';
export const NO_MATCHING_LOGS_MESSAGE = 'No logs match your current filters';

/** Spec doc 2 §2: /activity-logs. */
export function ActivityLogsPage() {
  const [filters, setFilters] = useState<ActivityLogFiltersValue>(NO_ACTIVITY_LOG_FILTERS);
  const { data: applications } = useApplications();
  const {
    data: logs,
    isPending,
    isError,
    error,
    isFetching,
    refetch,
  } = useActivityLogs(filters.applicationId);

  const filteredLogs = useMemo(
    () => (logs ? filterActivityLogs(logs, filters) : undefined),
    [logs, filters],
  );
  const stats = useMemo(
    () => (filteredLogs ? computeActivityLogStats(filteredLogs) : undefined),
    [filteredLogs],
  );
  const isFiltered = hasActiveFilters(filters);

  return (
    <SignedInLayout>
      <div className="flex flex-col gap-8">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <PageHeading
            title="Activity Logs"
            description="Registrations, logins and refusals from your applications' users. Updated every 10 seconds."
          />
          <RefreshButton isRefreshing={isFetching} onRefresh={() => void refetch()}>
            Refresh
          </RefreshButton>
        </div>

        <ActivityLogStats stats={stats} isLoading={isPending} />

        <Card>
          <CardHeader className="gap-4">
            <div className="grid gap-1.5">
              <CardTitle>Authentication Events</CardTitle>
              <CardDescription>
                {filteredLogs && logs
                  ? isFiltered
                    ? `Showing ${filteredLogs.length} of ${logs.length} events.`
                    : `The latest ${logs.length} events, newest first.`
                  : 'Newest first.'}
              </CardDescription>
            </div>
            <ActivityLogFilters
              filters={filters}
              onChange={setFilters}
              applications={applications}
            />
          </CardHeader>
          {/* One minmax(0, 1fr) column: an auto column would grow to the table's width and
              push the page sideways on a phone instead of letting the table scroll. */}
          <CardContent className="grid grid-cols-1 gap-4">
            {/* A failed background refresh keeps the last list on screen, flagged as stale. */}
            {isError && logs && <FormError>{ACTIVITY_LOGS_FETCH_ERROR}</FormError>}
            {isPending ? (
              <TableSkeleton rows={5} label="Loading activity logs" />
            ) : !filteredLogs ? (
              <LoadErrorState
                title={ACTIVITY_LOGS_FETCH_ERROR}
                description={getServerMessage(error) ?? 'Please try again in a moment.'}
                isRetrying={isFetching}
                onRetry={() => void refetch()}
              />
            ) : filteredLogs.length === 0 ? (
              isFiltered ? (
                <EmptyState
                  icon={SearchX}
                  title={NO_MATCHING_LOGS_MESSAGE}
                  description="Try another application, event type or search."
                />
              ) : (
                <EmptyState
                  icon={History}
                  title={NO_EVENTS_MESSAGE}
                  description="Events appear here as soon as your programs register or log users in through the client API."
                />
              )
            ) : (
              <ActivityLogsTable logs={filteredLogs} />
            )}
          </CardContent>
        </Card>
      </div>
    </SignedInLayout>
  );
}
