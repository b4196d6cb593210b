import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { appUsers } from './app-users.ts';

/**
 * A seat of a floating plan in use: one row per login that holds one. A lease is live while
 * `expires_at` is ahead (a login's lease length, moved on by its session's heartbeats, or the
 * end of a borrow); a lapsed row holds nothing and is swept later. Seats are counted per
 * holder, under the holder's row lock, so N+1 logins at once take N seats.
 */
export const seatLeases = pgTable(
  'seat_leases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    // No foreign key: the holder's cascades a deleted application's leases away already, and
    // one would lock the application's row (shared by every login of it) at each lease.
    applicationId: integer('application_id').notNull(),
    appUserId: uuid('app_user_id')
      .notNull()
      .references(() => appUsers.id, { onDelete: 'cascade' }),
    /** The SHA-256 of the login's session token: its session renews, borrows and ends it. */
    tokenHash: text('token_hash').notNull(),
    hwid: text('hwid'),
    /** The lease's length, from its plan: each heartbeat of its session runs it on by this. */
    leaseMinutes: integer('lease_minutes').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Set while borrowed: the session's end no longer frees the seat before this. */
    borrowedUntil: timestamp('borrowed_until', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    // The holder's seats, counted at each login; the owner's list per application.
    index('seat_leases_user_idx').on(table.appUserId, table.expiresAt),
    index('seat_leases_application_idx').on(table.applicationId, table.expiresAt),
    index('seat_leases_token_idx').on(table.tokenHash),
  ],
);

export type SeatLease = typeof seatLeases.$inferSelect;
