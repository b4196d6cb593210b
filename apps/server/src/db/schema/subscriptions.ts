import { index, integer, pgTable, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { appUsers } from './app-users.ts';
import { applications } from './applications.ts';
import { plans } from './plans.ts';

/**
 * What an end user holds of a plan: one row per user and plan, with its own expiry
 * (null is lifetime). A redeemed key extends it from the later of now and its expiry, in one
 * `INSERT … ON CONFLICT DO UPDATE`, so two redemptions at once stack instead of one losing.
 * The plan reference is NO ACTION (checked at the end of the statement): a plan in use cannot
 * be deleted, yet deleting the application still cascades through plans and subscriptions.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    appUserId: uuid('app_user_id')
      .notNull()
      .references(() => appUsers.id, { onDelete: 'cascade' }),
    planId: uuid('plan_id')
      .notNull()
      .references(() => plans.id),
    /** Null is lifetime. Past it the subscription is kept but grants nothing. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /**
     * The end of this subscription's updates window: releases published after it are refused
     * to the holder, who keeps the ones before. Null with no pending days: no window (every
     * release), as every grant of a plan without one leaves it.
     */
    updatesUntil: timestamp('updates_until', { withTimezone: true }),
    /**
     * Days of updates granted but not started: a plan whose window counts from activation
     * starts it at the holder's next login, which moves these days into `updates_until`.
     */
    updatesPendingDays: integer('updates_pending_days'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('subscriptions_user_plan_idx').on(table.appUserId, table.planId),
    // "Is this plan used?" when the owner deletes a plan.
    index('subscriptions_plan_idx').on(table.planId),
    // The expiry reminders' sweep: the subscriptions ending within the next days.
    index('subscriptions_expires_idx').on(table.expiresAt),
  ],
);

export type Subscription = typeof subscriptions.$inferSelect;
