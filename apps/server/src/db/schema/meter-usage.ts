import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { appUsers } from './app-users.ts';

/**
 * How much of each usage meter an end user has used in the meter's current period: one row per
 * user and meter name, holding only the period it was last counted in. A new period needs no
 * job: the first increment of a period finds an older `period_start` and starts from 0 in the
 * same `INSERT … ON CONFLICT DO UPDATE`, under the row's lock, so however many instances count
 * at once the reset happens exactly once; a reader treats an older period as 0 used.
 */
export const meterUsage = pgTable(
  'meter_usage',
  {
    appUserId: uuid('app_user_id')
      .notNull()
      .references(() => appUsers.id, { onDelete: 'cascade' }),
    meterName: text('meter_name').notNull(),
    /** The start of the period `used` counts (1970-01-01 for a meter that never resets). */
    periodStart: timestamp('period_start', { withTimezone: true }).notNull(),
    used: bigint('used', { mode: 'number' }).notNull(),
    /**
     * When the allowance was first reached or an increment first refused in this period: the
     * meter_exhausted event goes out once per period, on the change from null.
     */
    exhaustedAt: timestamp('exhausted_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.appUserId, table.meterName] }),
    check('meter_usage_used_positive', sql`${table.used} >= 0`),
  ],
);

/**
 * An increment sent with an idempotency key, and what it answered: a retry with the same key
 * within 24 hours is answered from here and counts nothing. Claimed by inserting the row in
 * the increment's transaction (the primary key lets one of two racing retries win); a refused
 * increment rolls its row back, so a retry after a refusal is counted afresh.
 */
export const meterIncrements = pgTable(
  'meter_increments',
  {
    appUserId: uuid('app_user_id')
      .notNull()
      .references(() => appUsers.id, { onDelete: 'cascade' }),
    idempotencyKey: text('idempotency_key').notNull(),
    meterName: text('meter_name').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    /** The meter's `used` right after this increment, and the period it counted in. */
    usedAfter: bigint('used_after', { mode: 'number' }).notNull(),
    periodStart: timestamp('period_start', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.appUserId, table.idempotencyKey] }),
    index('meter_increments_created_idx').on(table.createdAt),
  ],
);
