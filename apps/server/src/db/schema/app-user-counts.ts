import { bigint, integer, pgTable, primaryKey, smallint } from 'drizzle-orm/pg-core';
import { applications } from './applications.ts';

/**
 * Running totals of each application's end users, kept by triggers on app_users (migration
 * 0013): the users page, the application's stats (polled every five seconds) and the
 * dashboard counted every user of the application each time (15-40 ms at 100,000 users,
 * CPU that every vendor's verify then waited for). Insert and delete adjust them,
 * and so does an update that enables or disables a user, so they always equal a count over
 * the rows. Split into shards by the writing database session, like activity_counts, so
 * concurrent registrations do not queue on one row's lock; readers sum the shards.
 */
export const appUserCounts = pgTable(
  'app_user_counts',
  {
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    shard: smallint('shard').notNull(),
    userCount: bigint('user_count', { mode: 'number' }).notNull().default(0),
    /**
     * Users neither deactivated nor paused, expired or not: the active users are these less
     * the expired among them, which the standing index counts (only those are read).
     */
    enabledCount: bigint('enabled_count', { mode: 'number' }).notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.applicationId, table.shard] })],
);
