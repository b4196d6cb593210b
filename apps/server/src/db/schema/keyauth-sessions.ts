import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { applications } from './applications.ts';
import { appUsers } from './app-users.ts';

/**
 * A session of the KeyAuth-compatible client API: KeyAuth's `init` opens it before anyone has
 * logged in, every later request names it by `sessionid`. Its id is a bearer secret, so only a
 * keyed digest of it is stored. A login binds it to the end user and to the client session
 * that login started (app_user_sessions), so that ending, revoking or expiring that session
 * ends this one exactly as it ends a v1 program's. That session's token is kept sealed
 * (AES-256-GCM under the server secret) because every later KeyAuth request runs v1's verbs,
 * which take the token; the KeyAuth session id is the only way to it, and it is a digest here.
 */
export const keyauthSessions = pgTable(
  'keyauth_sessions',
  {
    idDigest: text('id_digest').primaryKey(),
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    /** The `enckey` the client sent with init: API 1.2 signs later answers with it. */
    enckey: text('enckey'),
    appUserId: uuid('app_user_id').references(() => appUsers.id, { onDelete: 'cascade' }),
    /** The client session's token, sealed: what v1's verbs are given for this session. */
    sessionTokenSealed: text('session_token_sealed'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('keyauth_sessions_expiry_idx').on(table.expiresAt)],
);

export type KeyauthSession = typeof keyauthSessions.$inferSelect;
