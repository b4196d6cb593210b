import {
  activityChartRanges,
  type ActivityChart,
  type ActivityChartRange,
  type ActivityChartSeriesKey,
} from '@latchkey/contracts';
import { ChartLine, Table2 } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Button } from '@/components/ui/button.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '@/components/ui/card.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { LoadErrorState } from '@/components/ui/load-error-state.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { DEFAULT_ACTIVITY_CHART_RANGE } from '@/hooks/owner-query-keys.ts';
import { useActivityChart } from '@/hooks/use-activity-chart.ts';
import { useTheme } from '@/hooks/use-theme.ts';
import { getErrorMessage } from '@/lib/api.ts';
import { cn } from '@/lib/utils.ts';
import {
  activityChartRangeLabels,
  activityChartSeriesKeys,
  activityChartSeriesLabels,
  activityChartSwatchClasses,
  hasAnyActivity,
} from './activity-chart-format.ts';
import { ActivityChartTable } from './activity-chart-table.tsx';
import { IconTile } from '@/components/ui/icon-tile.tsx';

// The chart library loads with the chart, never with the page, to keep the first load small.
const ActivityChartPlot = lazy(() => import('./activity-chart-plot.tsx'));

const ALL_SERIES: ReadonlySet<ActivityChartSeriesKey> = new Set(activityChartSeriesKeys);

function describeRange(range: ActivityChartRange): string {
  return range === '24h'
    ? 'Per hour over the last 24 hours (UTC).'
    : `Per day over the last ${range === '7d' ? 7 : 30} days (UTC days).`;
}

function ChartSkeleton() {
  return (
    <Skeleton data-testid="activity-chart-skeleton" className="h-[200px] w-full sm:h-[240px]" />
  );
}

/**
 * Logins, failed logins, registrations, new and live sessions of one application
 * (`applicationId`) or of all the owner's applications (null, the dashboard), by hour or by
 * day, with a range selector, a legend that shows and hides series, and a table toggle that is
 * the chart's text alternative.
 */
export function ActivityChartCard({
  applicationId,
  title = 'Activity',
}: {
  applicationId: number | null;
  title?: string;
}) {
  const [range, setRange] = useState<ActivityChartRange>(DEFAULT_ACTIVITY_CHART_RANGE);
  const [isTableShown, setIsTableShown] = useState(false);
  const [visibleSeries, setVisibleSeries] =
    useState<ReadonlySet<ActivityChartSeriesKey>>(ALL_SERIES);
  const { theme } = useTheme();
  const chartQuery = useActivityChart(applicationId, range);
  const chart: ActivityChart | undefined = chartQuery.data;

  const toggleSeries = (key: ActivityChartSeriesKey) =>
    setVisibleSeries((current) => {
      const next = new Set(current);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });

  const caption = `${title}: ${describeRange(range)}`;

  return (
    <Card className="gap-4" data-testid="activity-chart">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 flex-col gap-1.5">
          <CardTitle className="flex items-center gap-2 text-base">
            <IconTile icon={ChartLine} />
            {title}
          </CardTitle>
          <CardDescription>{describeRange(range)}</CardDescription>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <div
            role="group"
            aria-label="Range"
            className="inline-flex rounded-md border border-border p-0.5"
          >
            {activityChartRanges.map((option) => (
              <Button
                key={option}
                size="sm"
                variant={option === range ? 'secondary' : 'ghost'}
                aria-pressed={option === range}
                onClick={() => setRange(option)}
              >
                {activityChartRangeLabels[option]}
              </Button>
            ))}
          </div>
          <Button
            size="sm"
            variant="outline"
            aria-pressed={isTableShown}
            onClick={() => setIsTableShown((shown) => !shown)}
          >
            {isTableShown ? <ChartLine aria-hidden="true" /> : <Table2 aria-hidden="true" />}
            {isTableShown ? 'Show as chart' : 'Show as table'}
          </Button>
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {chartQuery.isPending ? (
          <ChartSkeleton />
        ) : chartQuery.isError || !chart ? (
          <LoadErrorState
            title="Could not load activity"
            description={getErrorMessage(chartQuery.error, 'The chart could not be loaded.')}
            isRetrying={chartQuery.isFetching}
            onRetry={() => void chartQuery.refetch()}
          />
        ) : !hasAnyActivity(chart) ? (
          <EmptyState
            icon={ChartLine}
            title="No activity yet"
            description={`Nothing happened in the last ${activityChartRangeLabels[range]}: logins, registrations and sessions will show here as they come in.`}
          />
        ) : isTableShown ? (
          <ActivityChartTable chart={chart} caption={caption} />
        ) : (
          <>
            <div role="group" aria-label="Series" className="flex flex-wrap gap-2">
              {activityChartSeriesKeys.map((key) => (
                <Button
                  key={key}
                  size="sm"
                  variant="outline"
                  aria-pressed={visibleSeries.has(key)}
                  onClick={() => toggleSeries(key)}
                  className={cn(!visibleSeries.has(key) && 'text-muted-foreground')}
                >
                  <span
                    aria-hidden="true"
                    className={cn(
                      'size-2.5 rounded-full',
                      activityChartSwatchClasses[key],
                      !visibleSeries.has(key) && 'opacity-30',
                    )}
                  />
                  {activityChartSeriesLabels[key]}
                </Button>
              ))}
            </div>
            <div
              role="img"
              aria-label={`Line chart. ${caption} Use "Show as table" to read the figures.`}
            >
              <Suspense fallback={<ChartSkeleton />}>
                <ActivityChartPlot chart={chart} visibleSeries={visibleSeries} theme={theme} />
              </Suspense>
            </div>
          </>
        )}
      </CardContent>
    </Card>
  );
}
