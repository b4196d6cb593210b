import { integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { applications } from './applications.ts';
import { appUsers } from './app-users.ts';

/**
 * A machine bound to an end user's account. Under HWID lock a login from a device
 * not in this list takes a free seat (the application's `max_devices`, or more from an active
 * plan) or is refused. `app_users.hwid` and `app_users.device_count` summarise this table for
 * the lists; only modules/devices/ writes it, and refreshes them in the same transaction.
 */
export const appUserDevices = pgTable(
  'app_user_devices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    appUserId: uuid('app_user_id')
      .notNull()
      .references(() => appUsers.id, { onDelete: 'cascade' }),
    hwid: text('hwid').notNull(),
    /** What the client sent as `device_name`; the latest one sent wins. */
    name: text('name'),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    lastIp: text('last_ip'),
    /** When an offline activation (the portal's air-gapped flow) last licensed this machine. */
    activatedOfflineAt: timestamp('activated_offline_at', { withTimezone: true }),
  },
  (table) => [
    // A login's probe (user, hwid), and the user's list; one row per machine per user.
    uniqueIndex('app_user_devices_user_hwid_idx').on(table.appUserId, table.hwid),
  ],
);

export type AppUserDevice = typeof appUserDevices.$inferSelect;
