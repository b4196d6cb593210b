import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { applications } from './applications.ts';
import { appUsers } from './app-users.ts';

/**
 * One authentication event of the public client API.
 *
 * Partitioned on created_at into ranges of UTC days (a twelfth of the retention each), so
 * retention drops a whole range instead of deleting its rows one by one. The partitions are not
 * drizzle's to know: migration 0043 makes them, and the retention sweep makes the ones ahead
 * and drops the expired ones with their counts (modules/retention/activity-log-partitions.ts).
 * A row outside every range made so far lands in `activity_logs_default`, moved into its range
 * when that range is made.
 */
export const activityLogs = pgTable(
  'activity_logs',
  {
    id: bigint('id', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    appUserId: uuid('app_user_id').references(() => appUsers.id, { onDelete: 'set null' }),
    /** The username as sent, kept even when no such user exists or it is later deleted. */
    username: text('username'),
    event: text('event').notNull(),
    success: boolean('success').notNull(),
    ipAddress: text('ip_address'),
    errorMessage: text('error_message'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    // A partitioned table's unique key must hold its partition key; id alone stays unique
    // (one identity sequence feeds every partition).
    primaryKey({ columns: [table.id, table.createdAt] }),
    index('activity_logs_application_created_idx').on(table.applicationId, table.createdAt),
    // The log page filtered by event type: without it, a rare event walks every row of the
    // application backwards to fill a page (179 ms against 0.3 ms at 200,000 rows each).
    index('activity_logs_application_event_created_idx').on(
      table.applicationId,
      table.event,
      table.createdAt,
    ),
    // Deleting an end user sets app_user_id to null in its logs: without an index, a scan.
    index('activity_logs_app_user_idx').on(table.appUserId),
    // The log's search finds the usernames and addresses that match in activity_log_terms,
    // then their rows here: a probe per term instead of a trigram index over every row.
    index('activity_logs_application_username_idx').on(table.applicationId, table.username),
    index('activity_logs_application_ip_address_idx').on(table.applicationId, table.ipAddress),
  ],
);

export type ActivityLog = typeof activityLogs.$inferSelect;
