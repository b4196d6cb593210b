import { boolean, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { applications } from './applications.ts';
import { ownerAccounts } from './owner-accounts.ts';

export const blacklistTypes = ['ip', 'username', 'email', 'hwid'] as const;
export type BlacklistType = (typeof blacklistTypes)[number];

/** A block on an IP, username, e-mail or HWID: for one application, or (null) all of the owner's. */
export const blacklistEntries = pgTable(
  'blacklist_entries',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    ownerAccountId: uuid('owner_account_id')
      .notNull()
      .references(() => ownerAccounts.id, { onDelete: 'cascade' }),
    applicationId: integer('application_id').references(() => applications.id, {
      onDelete: 'cascade',
    }),
    type: text('type').$type<BlacklistType>().notNull(),
    value: text('value').notNull(),
    reason: text('reason'),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('blacklist_entries_owner_idx').on(table.ownerAccountId, table.type)],
);

export type BlacklistEntry = typeof blacklistEntries.$inferSelect;
