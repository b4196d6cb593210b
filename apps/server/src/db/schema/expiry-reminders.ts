import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { applications } from './applications.ts';
import { appUsers } from './app-users.ts';

/**
 * One row per expiry reminder queued: what ends (`subscription:<id>`, or `account` for the
 * user's own expiry) and when. The unique index is what makes a reminder go out once per
 * period with any number of instances sweeping at once: the sweep inserts here and mails only
 * the rows it inserted. An extension moves the end, so the new period gets its own reminder.
 */
export const expiryReminders = pgTable(
  'expiry_reminders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    appUserId: uuid('app_user_id')
      .notNull()
      .references(() => appUsers.id, { onDelete: 'cascade' }),
    subject: text('subject').notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('expiry_reminders_once_idx').on(table.appUserId, table.subject, table.endsAt),
    // The retention sweep deletes reminders of periods long over.
    index('expiry_reminders_ends_idx').on(table.endsAt),
  ],
);
