import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { applications } from './applications.ts';

/** An end user of a vendor's application. The id is an opaque UUID, never a counter. */
export const appUsers = pgTable(
  'app_users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    username: text('username').notNull(),
    email: text('email'),
    /**
     * When `email` was confirmed (a mailed link followed, or the owner's word); null while it
     * is not. Changing the address clears it.
     */
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    /** The end user stopped expiry reminders (the link every reminder carries). */
    remindersStoppedAt: timestamp('reminders_stopped_at', { withTimezone: true }),
    /** argon2id PHC string; never leaves the server. */
    passwordHash: text('password_hash').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    isPaused: boolean('is_paused').notNull().default(false),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /**
     * Summaries of app_user_devices, kept by modules/devices/ in the transaction
     * that changes the devices: the first bound device's HWID (the seed's one HWID) and the
     * number bound, so the lists need no join.
     */
    hwid: text('hwid'),
    deviceCount: integer('device_count').notNull().default(0),
    /** The end user's last self-service device release, for the cooldown. */
    lastSelfResetAt: timestamp('last_self_reset_at', { withTimezone: true }),
    loginAttempts: integer('login_attempts').notNull().default(0),
    lastLogin: timestamp('last_login', { withTimezone: true }),
    /**
     * What the last successful login came from, so a session start can prove it follows that
     * login (docs/client-api.md, "Sessions"): the client IP, the HWID sent, and the SHA-256 of
     * the session token login issued. A per-username throttle also spares this IP.
     */
    lastLoginIp: text('last_login_ip'),
    lastLoginHwid: text('last_login_hwid'),
    lastLoginTokenHash: text('last_login_token_hash'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('app_users_application_username_idx').on(table.applicationId, table.username),
    // The owner's pages, newest first: with the id, a page's ids come from the index alone
    // (an index-only scan), however deep the page (list-app-users.ts).
    index('app_users_application_created_idx').on(table.applicationId, table.createdAt, table.id),
    // The owner's search (case-insensitive substring of username or e-mail): trigram indexes
    // serve ILIKE '%…%' without reading every user (pg_trgm, created by migration 0010).
    index('app_users_username_trgm_idx').using('gin', table.username.op('gin_trgm_ops')),
    // password/forgot by address: case-insensitive, exact.
    index('app_users_application_email_idx').on(table.applicationId, sql`lower(${table.email})`),
    index('app_users_email_trgm_idx').using('gin', table.email.op('gin_trgm_ops')),
    // The standing counts (total and active users per application) as an index-only scan.
    index('app_users_application_standing_idx').on(
      table.applicationId,
      table.isActive,
      table.isPaused,
      table.expiresAt,
    ),
  ],
);

export type AppUser = typeof appUsers.$inferSelect;

/** Whether the user's address is confirmed, as a column of a select from app_users. */
export const emailVerifiedColumn = () => sql<boolean>`${appUsers.emailVerifiedAt} is not null`;
