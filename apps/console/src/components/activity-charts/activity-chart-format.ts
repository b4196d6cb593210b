import {
  activityChartSeriesKeys,
  activityChartSeriesLabels,
  type ActivityChart,
  type ActivityChartRange,
  type ActivityChartSeriesKey,
} from '@latchkey/contracts';
import { onFirstUse } from '@/lib/on-first-use.ts';

export const activityChartRangeLabels: Record<ActivityChartRange, string> = {
  '24h': '24 hours',
  '7d': '7 days',
  '30d': '30 days',
};

/** Each series' colour: a CSS variable of the theme (index.css), light and dark. */
export const activityChartSeriesColors: Record<ActivityChartSeriesKey, string> = {
  logins: '--chart-logins',
  failedLogins: '--chart-failed-logins',
  registrations: '--chart-registrations',
  newSessions: '--chart-new-sessions',
  liveSessions: '--chart-live-sessions',
};

/** The same as Tailwind classes for the legend's swatches (written out whole for Tailwind). */
export const activityChartSwatchClasses: Record<ActivityChartSeriesKey, string> = {
  logins: 'bg-(--chart-logins)',
  failedLogins: 'bg-(--chart-failed-logins)',
  registrations: 'bg-(--chart-registrations)',
  newSessions: 'bg-(--chart-new-sessions)',
  liveSessions: 'bg-(--chart-live-sessions)',
};

export { activityChartSeriesKeys, activityChartSeriesLabels };

// Built on first use (see on-first-use.ts): a chart with nothing to show formats no dates.
const UTC_HOUR = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' } as const;
const UTC_DAY = { day: 'numeric', month: 'short', timeZone: 'UTC' } as const;
const hourFormat = onFirstUse(() => new Intl.DateTimeFormat('en-GB', UTC_HOUR));
const dayFormat = onFirstUse(() => new Intl.DateTimeFormat('en-GB', UTC_DAY));
const hourWithDayFormat = onFirstUse(
  () => new Intl.DateTimeFormat('en-GB', { ...UTC_DAY, ...UTC_HOUR }),
);

/** A bucket's start as an axis label: "14:00" by the hour, "26 Nov" by the day (UTC). */
export function formatBucketTick(start: Date, bucket: ActivityChart['bucket']): string {
  return bucket === 'hour' ? hourFormat().format(start) : dayFormat().format(start);
}

/** A bucket's start in the table, where the hour also names its day. */
export function formatBucketStart(start: Date, bucket: ActivityChart['bucket']): string {
  return bucket === 'hour' ? hourWithDayFormat().format(start) : dayFormat().format(start);
}

export function hasAnyActivity(chart: ActivityChart): boolean {
  return chart.points.some((point) => activityChartSeriesKeys.some((key) => point[key] > 0));
}
