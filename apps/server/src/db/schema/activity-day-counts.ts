import { bigint, integer, pgTable, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { applications } from './applications.ts';

/**
 * The activity log's rows per application, UTC day, event and address, with the four figures
 * the running totals keep (activity-totals.ts, activity-counts.ts). Nothing shows them: they
 * are what the retention sweep subtracts from the totals when it drops a partition of the log
 * (ranges of whole UTC days), so a dropped month costs a read of its groups, not a scan of its
 * millions of rows. Folded from activity-counter-deltas.ts like the other counters, so once
 * folded they equal a count over the rows that exist; the sweep deletes a dropped range's days,
 * and the days it has emptied row by row.
 */
export const activityDayCounts = pgTable(
  'activity_day_counts',
  {
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    /** UTC midnight of the rows' created_at. */
    day: timestamp('day', { withTimezone: true }).notNull(),
    event: text('event').notNull(),
    /** Null for the rows with no address, one group like any other. */
    ipAddress: text('ip_address'),
    rowCount: bigint('row_count', { mode: 'number' }).notNull(),
    successCount: bigint('success_count', { mode: 'number' }).notNull(),
    loginAttempts: bigint('login_attempts', { mode: 'number' }).notNull(),
    loginSuccesses: bigint('login_successes', { mode: 'number' }).notNull(),
  },
  // Day first: the sweep takes a range of days across every application, and one index is
  // all a new group costs the fold (measured by `npm run bench:fold`). Deleting an application
  // reads the table for its rows, which is rare enough not to pay an index on every sign-in.
  (table) => [
    unique('activity_day_counts_group_key')
      .on(table.day, table.applicationId, table.event, table.ipAddress)
      .nullsNotDistinct(),
  ],
);
