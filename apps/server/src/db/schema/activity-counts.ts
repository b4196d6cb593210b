import { bigint, integer, pgTable, primaryKey, smallint } from 'drizzle-orm/pg-core';
import { applications } from './applications.ts';

/**
 * Running totals over each application's activity log, kept by triggers on activity_logs
 * (migration 0010): the management page's login success rate would otherwise count a
 * million rows every five seconds. Insert and delete (retention) both adjust them, so they
 * always equal a count over the rows that exist. Split into shards by the writing database
 * session, so concurrent logins of one application do not queue on one row's lock; readers
 * sum the shards.
 */
export const activityCounts = pgTable(
  'activity_counts',
  {
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    shard: smallint('shard').notNull(),
    /** user_login and every login refusal, registrations' refusals excepted. */
    loginAttempts: bigint('login_attempts', { mode: 'number' }).notNull().default(0),
    /** user_login rows with success. */
    loginSuccesses: bigint('login_successes', { mode: 'number' }).notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.applicationId, table.shard] })],
);
