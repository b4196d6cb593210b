import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { applications } from './applications.ts';
import { appUsers } from './app-users.ts';

/** What a mailed link lets its holder do. */
export type EndUserTokenPurpose = 'password_reset' | 'email_verification';

/**
 * The single-use tokens of mailed links (choose a new password, confirm an address). A token is a bearer secret:
 * only its keyed digest is kept (lib/keyed-digest.ts), and it is spent by the statement that
 * uses it (`used_at`), so two tabs cannot both use one link.
 */
export const endUserTokens = pgTable(
  'end_user_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    appUserId: uuid('app_user_id')
      .notNull()
      .references(() => appUsers.id, { onDelete: 'cascade' }),
    purpose: text('purpose').$type<EndUserTokenPurpose>().notNull(),
    tokenDigest: text('token_digest').notNull().unique(),
    /**
     * The address an `email_verification` link confirms: a link mailed to an address the user
     * has since changed confirms nothing.
     */
    email: text('email'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (table) => [
    // A completed reset spends every other link of the user; a deletion cascades.
    index('end_user_tokens_app_user_idx').on(table.appUserId),
    // The retention sweep deletes expired tokens oldest first.
    index('end_user_tokens_expires_idx').on(table.expiresAt),
  ],
);
