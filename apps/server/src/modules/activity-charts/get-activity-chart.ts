import { and, gte, inArray, sql, type AnyColumn } from 'drizzle-orm';
import {
  LOGIN_FAILURE_EVENTS,
  LOGIN_SUCCESS_EVENT,
  type ActivityChart,
  type ActivityChartPoint,
  type ActivityChartRange,
} from '@latchkey/contracts';
import {
  activityHourlyCounts,
  applications,
  liveSessionSamples,
  sessionStartHourlyCounts,
} from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { foldCounterDeltas } from '../activity/index.ts';
import { notFound } from '../../lib/errors.ts';
import {
  APPLICATION_NOT_FOUND,
  ownedApplicationIds,
  ownedApplicationWhere,
} from '../../ownership/load-owned-application.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** The longest chart (30 days) and a day's margin: the retention sweep deletes older history. */
export const CHART_HISTORY_MS = 31 * DAY_MS;

const REGISTRATION_EVENT = 'user_register';
const CHARTED_EVENTS = [LOGIN_SUCCESS_EVENT, REGISTRATION_EVENT, ...LOGIN_FAILURE_EVENTS];

type Series = Exclude<keyof ActivityChartPoint, 'start'>;

/** The buckets of a range: 24 hours, or 7 or 30 UTC days, the current one last. */
export function chartBucketStarts(range: ActivityChartRange, now: Date): Date[] {
  const isHourly = range === '24h';
  const size = isHourly ? HOUR_MS : DAY_MS;
  const count = isHourly ? 24 : range === '7d' ? 7 : 30;
  const last = Math.floor(now.getTime() / size) * size;
  return Array.from({ length: count }, (_, index) => new Date(last - (count - 1 - index) * size));
}

/**
 * The activity chart of one of the owner's applications, or of all of them (no
 * applicationId), in one statement over the hourly buckets (schema/activity-buckets.ts, folded
 * first so they include every row written so far), never over the activity log: a 30-day
 * chart reads at most 720 hours per event of each application, whatever the size of its log. Days are UTC days summed from
 * their hours. Every bucket of the range is answered, zero where nothing happened.
 */
export async function getActivityChart({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: { applicationId?: number; range: ActivityChartRange };
}): Promise<ActivityChart> {
  const starts = chartBucketStarts(input.range, ctx.clock.now());
  const from = starts[0]!;
  const unit = input.range === '24h' ? 'hour' : 'day';
  // A literal, not a parameter: the grouping must be the same expression as the selection.
  const bucketStart = (column: AnyColumn) =>
    sql<number>`extract(epoch from date_trunc(${sql.raw(`'${unit}'`)}, ${column}, 'UTC'))::float8 * 1000`;
  const owned = ownedApplicationIds(ctx, input.applicationId);
  await foldCounterDeltas(ctx.db);

  const activity = ctx.db
    .select({
      start: bucketStart(activityHourlyCounts.hour),
      series: sql<Series>`case ${activityHourlyCounts.event}
        when ${LOGIN_SUCCESS_EVENT} then 'logins'
        when ${REGISTRATION_EVENT} then 'registrations'
        else 'failedLogins' end`,
      value: sql<number>`sum(${activityHourlyCounts.rowCount})::float8`,
    })
    .from(activityHourlyCounts)
    .where(
      and(
        inArray(activityHourlyCounts.applicationId, owned),
        gte(activityHourlyCounts.hour, from),
        inArray(activityHourlyCounts.event, CHARTED_EVENTS),
      ),
    )
    .groupBy(sql`1, 2`);
  const sessionStarts = ctx.db
    .select({
      start: bucketStart(sessionStartHourlyCounts.hour),
      series: sql<Series>`'newSessions'`,
      value: sql<number>`sum(${sessionStartHourlyCounts.sessionCount})::float8`,
    })
    .from(sessionStartHourlyCounts)
    .where(
      and(
        inArray(sessionStartHourlyCounts.applicationId, owned),
        gte(sessionStartHourlyCounts.hour, from),
      ),
    )
    .groupBy(sql`1, 2`);
  // Each application's peak in the bucket, then added up across applications: an upper
  // bound of the owner's simultaneous sessions when their applications peak at different
  // times within the bucket, exact for one application.
  const peaks = ctx.db
    .select({
      start: bucketStart(liveSessionSamples.hour).as('start'),
      applicationId: liveSessionSamples.applicationId,
      peak: sql<number>`max(${liveSessionSamples.liveSessions})`.as('peak'),
    })
    .from(liveSessionSamples)
    .where(
      and(inArray(liveSessionSamples.applicationId, owned), gte(liveSessionSamples.hour, from)),
    )
    .groupBy(sql`1, 2`)
    .as('peaks');
  const liveSessions = ctx.db
    .select({
      start: sql<number>`${peaks.start}`,
      series: sql<Series>`'liveSessions'`,
      value: sql<number>`sum(${peaks.peak})::float8`,
    })
    .from(peaks)
    .groupBy(sql`1, 2`);

  const [rows, isOwned] = await Promise.all([
    activity.unionAll(sessionStarts).unionAll(liveSessions),
    input.applicationId === undefined
      ? Promise.resolve(true)
      : ctx.db
          .select({ id: applications.id })
          .from(applications)
          .where(ownedApplicationWhere(ctx, input.applicationId))
          .then((found) => found.length > 0),
  ]);
  if (!isOwned) throw notFound(APPLICATION_NOT_FOUND);

  const points = new Map<number, ActivityChartPoint>(
    starts.map((start) => [
      start.getTime(),
      {
        start: start.toISOString(),
        logins: 0,
        failedLogins: 0,
        registrations: 0,
        newSessions: 0,
        liveSessions: 0,
      },
    ]),
  );
  for (const row of rows) {
    const point = points.get(Number(row.start));
    if (point) point[row.series] += Math.max(0, Number(row.value));
  }
  return { range: input.range, bucket: unit, points: [...points.values()] };
}
