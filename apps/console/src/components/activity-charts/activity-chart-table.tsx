import type { ActivityChart } from '@latchkey/contracts';
import {
  Table,
  TableBody,
  TableCaption,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table.tsx';
import {
  activityChartSeriesKeys,
  activityChartSeriesLabels,
  formatBucketStart,
} from './activity-chart-format.ts';

const countFormat = new Intl.NumberFormat('en-US');

/** The chart's text alternative: every bucket and every series, as a real table. */
export function ActivityChartTable({ chart, caption }: { chart: ActivityChart; caption: string }) {
  return (
    <Table label={caption}>
      <TableCaption>{caption}</TableCaption>
      <TableHeader>
        <TableRow>
          <TableHead scope="col">{chart.bucket === 'hour' ? 'Hour (UTC)' : 'Day (UTC)'}</TableHead>
          {activityChartSeriesKeys.map((key) => (
            <TableHead key={key} scope="col" className="text-right">
              {activityChartSeriesLabels[key]}
            </TableHead>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {chart.points.map((point) => (
          <TableRow key={point.start}>
            <TableCell className="whitespace-nowrap">
              {formatBucketStart(new Date(point.start), chart.bucket)}
            </TableCell>
            {activityChartSeriesKeys.map((key) => (
              <TableCell key={key} className="text-right tabular-nums">
                {countFormat.format(point[key])}
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
