import { z } from 'zod';

/** The charts' ranges: the last 24 hours by hour, the last 7 and 30 days by day. */
export const activityChartRanges = ['24h', '7d', '30d'] as const;
export const activityChartRangeSchema = z.enum(
  activityChartRanges,
  `range must be one of ${activityChartRanges.join(', ')}`,
);
export type ActivityChartRange = z.infer<typeof activityChartRangeSchema>;

/** GET /api/applications/:id/activity-chart?range= and GET /api/dashboard/activity-chart?range=. */
export const activityChartQuerySchema = z.object({
  range: z.preprocess(
    (value) => (value === undefined || value === '' ? '24h' : value),
    activityChartRangeSchema,
  ),
});
export type ActivityChartQuery = z.output<typeof activityChartQuerySchema>;

/** The series a chart draws, in the order of its legend. */
export const activityChartSeriesKeys = [
  'logins',
  'failedLogins',
  'registrations',
  'newSessions',
  'liveSessions',
] as const;
export type ActivityChartSeriesKey = (typeof activityChartSeriesKeys)[number];

export const activityChartSeriesLabels: Record<ActivityChartSeriesKey, string> = {
  logins: 'Logins',
  failedLogins: 'Failed logins',
  registrations: 'Registrations',
  newSessions: 'New sessions',
  liveSessions: 'Live sessions',
};

/**
 * One bucket: an hour (range 24h) or a UTC day (7d, 30d), starting at `start`. Logins are
 * `user_login` rows (each one a success), failed logins every LOGIN_FAILURE_EVENTS row, registrations
 * `user_register` rows, new sessions the client sessions started. Live sessions are the most
 * seen at once by the sampler in the bucket (per application, added up across applications
 * on the dashboard), 0 where nothing was sampled.
 */
export const activityChartPointSchema = z.object({
  start: z.iso.datetime(),
  logins: z.number().int().min(0),
  failedLogins: z.number().int().min(0),
  registrations: z.number().int().min(0),
  newSessions: z.number().int().min(0),
  liveSessions: z.number().int().min(0),
});
export type ActivityChartPoint = z.infer<typeof activityChartPointSchema>;

/** Every bucket of the range, oldest first, zero-filled; the last one is still filling. */
export const activityChartSchema = z
  .object({
    range: activityChartRangeSchema,
    bucket: z.enum(['hour', 'day']),
    points: z.array(activityChartPointSchema),
  })
  .meta({
    id: 'ActivityChart',
    description: 'Activity per hour or per UTC day, from pre-aggregated buckets.',
  });
export type ActivityChart = z.infer<typeof activityChartSchema>;
