import { index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { applications } from './applications.ts';

/**
 * Every username and address each application's activity log holds, once: what the log's
 * search reads instead of the log.
 *
 * Why: a search for `user-4242` through a trigram index on the log's own columns read the
 * posting lists of `use`, `ser` and `er ` (trigrams every row shares) in every partition, ~9 ms
 * per million rows however few rows matched. Here each name is one row whatever its number of
 * log rows, so the trigram index is read once, over the names; the log is then probed by its
 * btree on (application_id, username) or (application_id, ip_address) for the few that match.
 *
 * Kept by the counter fold (modules/activity/fold-counter-deltas.ts) from the deltas the log's
 * statement trigger writes with the rows, so a sign-in pays no statement for its terms; a
 * search folds first, so it misses no row written before it. `last_seen_day` is the UTC day of
 * the term's newest row, moved forward by the fold; the retention sweep deletes a term whose
 * day is older than the oldest row it keeps.
 */
export const activityLogTerms = pgTable(
  'activity_log_terms',
  {
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    /** The log's column the term is a value of: 'username' or 'ip_address'. */
    field: text('field').notNull(),
    value: text('value').notNull(),
    lastSeenDay: timestamp('last_seen_day', { withTimezone: true }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.applicationId, table.field, table.value] }),
    index('activity_log_terms_value_trgm_idx').using('gin', table.value.op('gin_trgm_ops')),
    // The retention sweep's prune reads an application's terms older than what it keeps by
    // this, not by a scan of all of them (a million names: ~0.3 s). The fold moves a term's day
    // at most once a day, so the update that leaves HOT for it is a term's first row of a day.
    index('activity_log_terms_application_day_idx').on(table.applicationId, table.lastSeenDay),
  ],
);
