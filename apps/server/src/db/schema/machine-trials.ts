import { index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { appUsers } from './app-users.ts';
import { applications } from './applications.ts';

/**
 * The trial each machine (HWID) of an application has had: one row per machine, for as long as
 * the application exists, so a reinstall or a new account on the machine finds the trial it
 * already had instead of starting another. The primary key makes two first calls at once start
 * one trial. Deleting the trial's account keeps the row with no account: that machine's trial
 * is used, and no other is given.
 */
export const machineTrials = pgTable(
  'machine_trials',
  {
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    hwid: text('hwid').notNull(),
    appUserId: uuid('app_user_id').references(() => appUsers.id, { onDelete: 'set null' }),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.applicationId, table.hwid] }),
    // The set-null of a deleted account finds its row.
    index('machine_trials_user_idx').on(table.appUserId),
  ],
);

export type MachineTrial = typeof machineTrials.$inferSelect;
