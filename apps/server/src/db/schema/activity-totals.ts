import { bigint, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { applications } from './applications.ts';

/*
 * Running totals over the activity log, kept like activity_counts (folded from
 * activity-counter-deltas.ts): the log's page count and its four stat cards would otherwise
 * count every row of a million-row log on each visit (95 ms and 224 ms at that size). Inserts
 * add and deletes (retention) subtract, so once folded they equal a count over the rows that
 * exist. A search still counts the rows it matches: a search has no total to keep.
 */

/** Rows and successful rows per application and event. */
export const activityEventCounts = pgTable(
  'activity_event_counts',
  {
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    rowCount: bigint('row_count', { mode: 'number' }).notNull().default(0),
    successCount: bigint('success_count', { mode: 'number' }).notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.applicationId, table.event] })],
);

/**
 * How many rows of an application name each IP address: the "Unique IPs" card counts the
 * addresses with a row (the fold deletes a count it takes to zero).
 */
export const activityAddressCounts = pgTable(
  'activity_address_counts',
  {
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    ipAddress: text('ip_address').notNull(),
    rowCount: bigint('row_count', { mode: 'number' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.applicationId, table.ipAddress] })],
);

/** The same per event, for the "Unique IPs" card of a log filtered by event. */
export const activityEventAddressCounts = pgTable(
  'activity_event_address_counts',
  {
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    ipAddress: text('ip_address').notNull(),
    rowCount: bigint('row_count', { mode: 'number' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.applicationId, table.event, table.ipAddress] })],
);
