import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { ownerAccounts } from './owner-accounts.ts';

/** A console sign-in. Only the SHA-256 of the cookie's token is stored. */
export const ownerSessions = pgTable(
  'owner_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => ownerAccounts.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    userAgent: text('user_agent'),
  },
  (table) => [index('owner_sessions_account_idx').on(table.accountId)],
);

export type OwnerSession = typeof ownerSessions.$inferSelect;
