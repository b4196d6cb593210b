import { bigint, integer, pgTable } from 'drizzle-orm/pg-core';
import { applications } from './applications.ts';

/**
 * Running totals over each application's activity log: the management page's login success
 * rate would otherwise count a million rows every five seconds. Inserts and deletes
 * (retention) reach them as deltas folded in batches (activity-counter-deltas.ts), so once
 * folded they equal a count over the rows that exist.
 */
export const activityCounts = pgTable('activity_counts', {
  applicationId: integer('application_id')
    .primaryKey()
    .references(() => applications.id, { onDelete: 'cascade' }),
  /** user_login and every login refusal, registrations' refusals excepted. */
  loginAttempts: bigint('login_attempts', { mode: 'number' }).notNull().default(0),
  /** user_login rows with success. */
  loginSuccesses: bigint('login_successes', { mode: 'number' }).notNull().default(0),
});
