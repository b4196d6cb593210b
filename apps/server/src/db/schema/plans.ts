import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { PlanMeter } from '@latchkey/contracts';
import { applications } from './applications.ts';

/**
 * What an application sells: a duration and entitlements. The id is an opaque
 * UUID. Licence keys and subscriptions will reference a plan with ON DELETE RESTRICT, so a
 * plan in use is archived, never deleted.
 */
export const plans = pgTable(
  'plans',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Null is lifetime. */
    durationDays: integer('duration_days'),
    /** Sorted, without duplicates (the contract normalises them). */
    entitlements: text('entitlements')
      .array()
      .notNull()
      .default(sql`'{}'`),
    description: text('description'),
    /** Devices a holder may bind, when more than the application allows; null: no change. */
    maxDevices: integer('max_devices'),
    /**
     * Days of updates a grant of this plan includes ("buy once, a year of updates"); null: no
     * window, every release. A holder whose window has ended keeps the releases published
     * within it and is refused the ones after.
     */
    updatesForDays: integer('updates_for_days'),
    /** Whether that window starts when the plan is granted or at the holder's next login. */
    updatesFrom: text('updates_from', { enum: ['redemption', 'activation'] })
      .notNull()
      .default('redemption'),
    /**
     * Usage meters its holders get: `{ name, allowance, resetEvery, overage }` each, checked by
     * the contract. JSON beside the plan because every read of a holder's subscriptions reads
     * them with the plan, and a plan's meters change only as a whole.
     */
    meters: jsonb('meters').$type<PlanMeter[]>().notNull().default([]),
    /**
     * Floating: a holder runs `seats` sessions at once on any machines, each login leasing a
     * seat (seat_leases) for `lease_minutes`, renewed by heartbeats; a session may borrow its
     * seat for up to `max_borrow_days` (0: never).
     */
    isFloating: boolean('floating').notNull().default(false),
    seats: integer('seats'),
    leaseMinutes: integer('lease_minutes').notNull().default(60),
    maxBorrowDays: integer('max_borrow_days').notNull().default(0),
    /**
     * The application's trial grant: at most one per application, kept by the server in step
     * with the application's trial settings, and never listed, edited or sold as a plan. A trial
     * is a subscription of it, so login, verify and offline licences read a trial's
     * entitlements as they read any plan's.
     */
    isTrial: boolean('trial').notNull().default(false),
    /** An archived plan gets no new keys; the keys it has keep it. */
    isArchived: boolean('archived').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    // Names are unique per application whatever their case ("Pro" and "PRO" would confuse
    // the owner); the index also serves the application's list, ordered by name.
    // The trial plan is not the owner's and may share a name with one of theirs.
    uniqueIndex('plans_application_name_idx')
      .on(table.applicationId, sql`lower(${table.name})`)
      .where(sql`not ${table.isTrial}`),
    uniqueIndex('plans_application_trial_idx')
      .on(table.applicationId)
      .where(sql`${table.isTrial}`),
    check(
      'plans_duration_days_range',
      sql`${table.durationDays} IS NULL OR ${table.durationDays} BETWEEN 1 AND 36500`,
    ),
    check(
      'plans_updates_for_days_range',
      sql`${table.updatesForDays} IS NULL OR ${table.updatesForDays} BETWEEN 1 AND 36500`,
    ),
    check('plans_floating_has_seats', sql`not ${table.isFloating} or ${table.seats} is not null`),
    check('plans_seats_range', sql`${table.seats} is null or ${table.seats} between 1 and 10000`),
    check('plans_lease_minutes_range', sql`${table.leaseMinutes} between 5 and 1440`),
    check('plans_max_borrow_days_range', sql`${table.maxBorrowDays} between 0 and 365`),
    check('plans_updates_from_kind', sql`${table.updatesFrom} IN ('redemption', 'activation')`),
  ],
);

export type Plan = typeof plans.$inferSelect;
