import { bigint, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { applications } from './applications.ts';

/*
 * Hourly buckets for the activity charts: the application page and the dashboard
 * draw logins, failed logins, registrations and new sessions per hour and per day over up to
 * 30 days, and a count over the log for that would read a busy application's million rows on
 * every refresh. Like the running totals (activity-totals.ts), they are folded from
 * activity-counter-deltas.ts. A day is 24 hourly buckets summed when read: a 30-day chart
 * reads about 720 rows per event.
 */

/**
 * Activity rows per application, UTC hour (of created_at) and event. Inserts add and deletes
 * subtract (retention; an application's cascade takes them with it), so once folded they
 * equal a count over the rows that exist. The retention sweep deletes the buckets of hours it
 * has emptied.
 */
export const activityHourlyCounts = pgTable(
  'activity_hourly_counts',
  {
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    event: text('event').notNull(),
    rowCount: bigint('row_count', { mode: 'number' }).notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.applicationId, table.hour, table.event] })],
);

/**
 * Client sessions started per application and UTC hour, folded from the deltas an AFTER
 * INSERT statement trigger on app_user_sessions writes (heartbeats are updates and never fire
 * it; a client retrying a start with the same token updates and is not counted again). Sessions are deleted long
 * after they end, and a chart of starts should not shrink then, so these are history, not a
 * count over rows: the retention sweep deletes the hours older than the charts show.
 */
export const sessionStartHourlyCounts = pgTable(
  'session_start_hourly_counts',
  {
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    sessionCount: bigint('session_count', { mode: 'number' }).notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.applicationId, table.hour] })],
);

/**
 * The most live sessions seen per application in each UTC hour, written by the live-session
 * sampler (modules/activity-charts/live-session-sampler.ts). "Live" is a heartbeat within
 * the last 90 seconds, a moving window no trigger can follow, so it is sampled.
 */
export const liveSessionSamples = pgTable(
  'live_session_samples',
  {
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    liveSessions: integer('live_sessions').notNull(),
  },
  (table) => [primaryKey({ columns: [table.applicationId, table.hour] })],
);
