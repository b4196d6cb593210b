import { sql } from 'drizzle-orm';
import { check, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * One row: a keyed digest of a fixed text under the SERVER_SECRET the database was set up
 * with, so an instance started with another secret (which could open none of the sealed
 * signing keys and webhook secrets) refuses to start instead of failing requests later
 * (lib/server-secret-check.ts). A digest, not the secret: it reveals nothing about it.
 */
export const serverSecretCheck = pgTable(
  'server_secret_check',
  {
    id: integer('id').primaryKey().default(1),
    digest: text('digest').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check('server_secret_check_one_row', sql`${table.id} = 1`)],
);
