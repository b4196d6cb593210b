import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { applications } from './applications.ts';
import { appUsers } from './app-users.ts';

export const sessionEndReasons = [
  'client',
  'owner',
  'standing',
  'replaced',
  'idle',
  'device_released',
  'password_changed',
] as const;
export type SessionEndReason = (typeof sessionEndReasons)[number];

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
    /** The HWID of the login the start proved: releasing that device ends it. */
    hwid: text('hwid'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    lastHeartbeatAt: timestamp('last_heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    /** Why it ended: the client, the owner, the user's standing, the session limit, silence, its device released, or a new password. */
    endReason: text('end_reason').$type<SessionEndReason>(),
  },
  (table) => [
    // The token first, so a lookup by token is a probe PostgreSQL cannot plan as a scan of
    // the application: with statistics from before the table grew (a new application's
    // sessions not yet analysed), "application_id = $1" looks like one row, and with an
    // (application_id, token_hash) index PostgreSQL 15 did read all of the application's
    // sessions, filtering on the token, for every heartbeat batch.
    uniqueIndex('app_user_sessions_token_idx').on(table.tokenHash, table.applicationId),
    // Open sessions per application, for the live-session stats. last_heartbeat_at is in
    // no index on purpose: a heartbeat then rewrites the row in place (a HOT update, with
    // the table's fillfactor leaving room) instead of inserting into every index; that was
    // most of PostgreSQL's work per heartbeat. Lookups by token leave "ended_at is null"
    // out of their WHERE, so that this index can never be chosen for them (see above).
    index('app_user_sessions_open_idx')
      .on(table.applicationId)
      .where(sql`${table.endedAt} is null`),
    // Deleting an end user cascades to their sessions: without an index, a scan.
    index('app_user_sessions_app_user_idx').on(table.appUserId),
    // The retention sweep deletes ended sessions oldest first, a batch at a time.
    index('app_user_sessions_ended_idx')
      .on(table.endedAt)
      .where(sql`${table.endedAt} is not null`),
  ],
);

export type AppUserSession = typeof appUserSessions.$inferSelect;
