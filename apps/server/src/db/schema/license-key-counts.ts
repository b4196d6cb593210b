import { bigint, integer, pgTable, primaryKey, smallint } from 'drizzle-orm/pg-core';
import { applications } from './applications.ts';

/**
 * Running totals of each application's licence keys by state, kept by triggers on
 * license_keys (migration 0016), so the dashboard and the application's stats (polled every
 * five seconds) never count a million keys. Sharded by the writing session like
 * app_user_counts, so concurrent redemptions do not queue on one row; readers sum the shards.
 */
export const licenseKeyCounts = pgTable(
  'license_key_counts',
  {
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    shard: smallint('shard').notNull(),
    unusedCount: bigint('unused_count', { mode: 'number' }).notNull().default(0),
    usedCount: bigint('used_count', { mode: 'number' }).notNull().default(0),
    bannedCount: bigint('banned_count', { mode: 'number' }).notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.applicationId, table.shard] })],
);
