import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { applications } from './applications.ts';
import { appUsers } from './app-users.ts';

/** A desktop client's session, kept alive by heartbeats. Only the token's hash is stored. */
export const appUserSessions = pgTable(
  'app_user_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    appUserId: uuid('app_user_id')
      .notNull()
      .references(() => appUsers.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    ipAddress: text('ip_address'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    lastHeartbeatAt: timestamp('last_heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('app_user_sessions_token_idx').on(table.applicationId, table.tokenHash),
    index('app_user_sessions_live_idx').on(table.applicationId, table.lastHeartbeatAt),
    // Deleting an end user cascades to their sessions: without an index, a scan.
    index('app_user_sessions_app_user_idx').on(table.appUserId),
  ],
);

export type AppUserSession = typeof appUserSessions.$inferSelect;
