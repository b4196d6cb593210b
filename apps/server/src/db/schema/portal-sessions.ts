import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { applications } from './applications.ts';
import { appUsers } from './app-users.ts';

/**
 * An end user signed in to their application's portal. The cookie's token is a
 * bearer secret: only its keyed digest is kept (lib/keyed-digest.ts, purpose portal-session).
 */
export const portalSessions = pgTable(
  'portal_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    appUserId: uuid('app_user_id')
      .notNull()
      .references(() => appUsers.id, { onDelete: 'cascade' }),
    tokenDigest: text('token_digest').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    // A password change ends the user's other sessions; a user's deletion cascades.
    index('portal_sessions_app_user_idx').on(table.appUserId),
    // The retention sweep deletes expired sessions oldest first, a batch at a time.
    index('portal_sessions_expires_idx').on(table.expiresAt),
  ],
);

export type PortalSession = typeof portalSessions.$inferSelect;
