import { History, SearchX } from 'lucide-react';
import { useState } from 'react';
import {
  hasActiveFilters,
  NO_ACTIVITY_LOG_FILTERS,
  toActivityLogQuery,
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
import { ListPager } from '@/components/ui/list-pager.tsx';
import { LoadErrorState } from '@/components/ui/load-error-state.tsx';
import { RefreshButton } from '@/components/ui/refresh-button.tsx';
import { toStatLoadState } from '@/components/ui/stat-grid.tsx';
import { TableSkeleton } from '@/components/ui/table-skeleton.tsx';
import {
  ACTIVITY_LOGS_FETCH_ERROR,
  useActivityLogs,
  useActivityLogStats,
} from '@/hooks/use-activity-logs.ts';
import { useApplications } from '@/hooks/use-applications.ts';
import { useDebouncedValue } from '@/hooks/use-debounced-value.ts';
import { getServerMessage } from '@/hooks/use-owner-mutation.ts';

export const NO_EVENTS_MESSAGE = 'No authentication events have been recorded yet';
export const NO_MATCHING_LOGS_MESSAGE = 'No logs match your current filters';

/** /activity-logs: the stat cards, the filters and the log, a page at a time. */
export function ActivityLogsPage() {
  const [filters, setFilters] = useState<ActivityLogFiltersValue>(NO_ACTIVITY_LOG_FILTERS);
  const [page, setPage] = useState(1);
  // The server searches: it is asked once the typing pauses, not at every key.
  const settledSearch = useDebouncedValue(filters.search);
  const settledFilters = { ...filters, search: settledSearch };
  const query = toActivityLogQuery(settledFilters);
  const { data: applications } = useApplications();
  const {
    data: logsPage,
    isPending,
    isError,
    error,
    isFetching,
    refetch,
  } = useActivityLogs(query, page);
  const stats = useActivityLogStats(query);
  const isFiltered = hasActiveFilters(settledFilters);
  const changeFilters = (next: ActivityLogFiltersValue) => {
    setFilters(next);
    setPage(1);
  };

  return (
    <SignedInLayout>
      <div className="flex flex-col gap-8">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <PageHeading
            title="Activity Logs"
            description="Registrations, logins and refusals from your applications' users. Updated every 10 seconds."
          />
          <RefreshButton
            isRefreshing={isFetching || stats.isFetching}
            onRefresh={() => {
              void refetch();
              void stats.refetch();
            }}
          >
            Refresh
          </RefreshButton>
        </div>

        <ActivityLogStats stats={stats.data} {...toStatLoadState(stats)} />

        <Card>
          <CardHeader className="gap-4">
            <div className="grid gap-1.5">
              <CardTitle>Authentication Events</CardTitle>
              <CardDescription>Newest first.</CardDescription>
            </div>
            <ActivityLogFilters
              filters={filters}
              onChange={changeFilters}
              applications={applications}
            />
          </CardHeader>
          {/* One minmax(0, 1fr) column: an auto column would grow to the table's width and
              push the page sideways on a phone instead of letting the table scroll. */}
          <CardContent className="grid grid-cols-1 gap-4">
            {/* A failed background refresh keeps the last list on screen, flagged as stale. */}
            {isError && logsPage && <FormError>{ACTIVITY_LOGS_FETCH_ERROR}</FormError>}
            {isPending ? (
              <TableSkeleton rows={5} label="Loading activity logs" />
            ) : !logsPage ? (
              <LoadErrorState
                title={ACTIVITY_LOGS_FETCH_ERROR}
                description={getServerMessage(error) ?? 'Please try again in a moment.'}
                isRetrying={isFetching}
                onRetry={() => void refetch()}
              />
            ) : logsPage.totalCount === 0 ? (
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
              <>
                <ActivityLogsTable logs={logsPage.rows} />
                <ListPager
                  label="Activity log pages"
                  page={logsPage.page}
                  pageSize={logsPage.pageSize}
                  rowCount={logsPage.rows.length}
                  totalCount={logsPage.totalCount}
                  isTotalCapped={logsPage.isTotalCapped}
                  onPageChange={setPage}
                />
              </>
            )}
          </CardContent>
        </Card>
      </div>
    </SignedInLayout>
  );
}
