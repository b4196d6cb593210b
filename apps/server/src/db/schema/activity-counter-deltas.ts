import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Changes to the activity counters (activity_counts, activity_event_counts, the two address
 * counts, activity_hourly_counts, activity_day_counts, session_start_hourly_counts) not yet
 * added to them.
 *
 * Why a queue and not upserts: every sign-in writes an activity row and a session, and when
 * statement triggers upserted each counter directly, a sign-in paid six upserts into rows
 * that every other sign-in of the same application and hour also updated: a row lock held to
 * commit and a dead tuple per counter per sign-in. Now the triggers on activity_logs and
 * app_user_sessions (migration 0035) only append here, in the same statement as the rows, so
 * a change is committed exactly when its row is; no index, no conflict, no lock shared with
 * other writers. The fold (modules/activity/fold-counter-deltas.ts) then takes the queue in
 * one statement, every second and before any read of the counters: N sign-ins of an
 * application in a second become one update per counter row.
 *
 * Nothing can be lost between the two: the fold deletes the deltas and adds them in one
 * transaction, and two folds running at once (two instances) take disjoint rows.
 */
export const activityCounterDeltas = pgTable('activity_counter_deltas', {
  applicationId: integer('application_id').notNull(),
  /**
   * The UTC hour of the row's created_at (or the session's started_at). '-infinity' for the
   * rows of a dropped partition of the log, subtracted from every counter but the hourly
   * buckets and the day counts, which the drop deletes whole (grouping by hour would make a
   * delta row per hour, event and address: a million for a month of rows from many addresses).
   */
  hour: timestamp('hour', { withTimezone: true }).notNull(),
  /** The activity event; null for session starts. */
  event: text('event'),
  ipAddress: text('ip_address'),
  /**
   * The rows' username, for the log's search terms (schema/activity-log-terms.ts), which the
   * fold keeps; null for deletions and session starts.
   */
  username: text('username'),
  /** Rows added (negative: deleted); for session starts, the sessions started. */
  rowCount: integer('row_count').notNull(),
  successCount: integer('success_count').notNull(),
  loginAttempts: integer('login_attempts').notNull(),
  loginSuccesses: integer('login_successes').notNull(),
});
