import { z } from 'zod';
import { applicationIdSchema } from './applications.ts';
import { CLEAN_TEXT_MESSAGE, isCleanText } from './clean-text.ts';
import { planMaxDevicesField } from './devices.ts';
import { entitlementCodesField, entitlementLimits } from './entitlements.ts';
import { planMeterSchema, planMetersField } from './meters.ts';

/**
 * Plans: what an application sells. A licence key or a subscription will name one plan; the
 * plan says for how long (days, or lifetime) and which entitlements it grants.
 */
export const planLimits = {
  name: 100,
  description: 500,
  /** Entitlement codes per plan. */
  entitlements: entitlementLimits.perGrant,
  entitlementCode: entitlementLimits.code,
  /** A hundred years: longer is lifetime, which is null. */
  durationDays: 36_500,
  /** Floating plans: seats per holder, a lease's length, the longest borrow. */
  seats: 10_000,
  minLeaseMinutes: 5,
  maxLeaseMinutes: 1_440,
  defaultLeaseMinutes: 60,
  maxBorrowDays: 365,
} as const;

export const PLAN_NAME_REQUIRED = 'Please enter a plan name';
export const PLAN_NOT_FOUND = 'Plan not found';
export const PLAN_IN_USE =
  'This plan has licence keys or subscriptions: archive it instead, so they keep their plan';
export const PLAN_NAME_TAKEN = 'This application already has a plan with that name';
export const PLAN_DURATION_RANGE = `Duration must be between 1 and ${planLimits.durationDays} days (null for lifetime)`;

/** When a plan's updates window starts: at the grant, or at the holder's next login. */
export const updatesFromSchema = z.enum(['redemption', 'activation'], {
  error: 'updatesFrom must be redemption or activation',
});
export type UpdatesFrom = z.infer<typeof updatesFromSchema>;

export const PLAN_UPDATES_RANGE = `Updates must be between 1 and ${planLimits.durationDays} days (null for every release)`;

/** A plan as the owner API returns it. */
export const planSchema = z
  .object({
    id: z.uuid(),
    applicationId: z.number().int(),
    name: z.string(),
    /** Days a key or subscription of this plan lasts; null is lifetime. */
    durationDays: z.number().int().nullable(),
    /** Sorted, without duplicates. */
    entitlements: z.array(z.string()),
    description: z.string().nullable(),
    /** Devices its holders may bind, when more than the application's; null: no change. */
    maxDevices: z.number().int().nullable(),
    /**
     * Days of updates each grant includes; null: no window (every release). Past the window
     * the holder keeps the releases published within it and is refused newer ones.
     */
    updatesForDays: z.number().int().nullable(),
    /** Whether the window counts from the grant (redemption) or from the holder's next login. */
    updatesFrom: updatesFromSchema,
    /** Usage meters its holders get (names unique within the plan). */
    meters: z.array(planMeterSchema),
    /**
     * Floating: a holder may run `seats` sessions at once, on any machines; each login leases a
     * seat for `leaseMinutes` (renewed by heartbeats), and a session may borrow its seat for up
     * to `maxBorrowDays` (0: no borrowing).
     */
    floating: z.boolean(),
    seats: z.number().int().nullable(),
    leaseMinutes: z.number().int(),
    maxBorrowDays: z.number().int(),
    /** An archived plan stays on the keys that use it but gets no new keys. */
    archived: z.boolean(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Plan', description: 'A plan of an application: duration and entitlements.' });
export type Plan = z.infer<typeof planSchema>;
export const planListSchema = z.array(planSchema);

const planName = z
  .string({ error: PLAN_NAME_REQUIRED })
  .refine(isCleanText, { message: CLEAN_TEXT_MESSAGE, abort: true })
  .trim()
  .min(1, PLAN_NAME_REQUIRED)
  .max(planLimits.name, `Plan name must be at most ${planLimits.name} characters`);

/** Blank is stored as "no description". */
const planDescription = z
  .string()
  .refine(isCleanText, { message: CLEAN_TEXT_MESSAGE, abort: true })
  .trim()
  .max(planLimits.description, `Description must be at most ${planLimits.description} characters`)
  .nullable()
  .transform((value) => value || null);

const planDuration = z
  .number({ error: 'Duration must be a whole number of days, or null for lifetime' })
  .int('Duration must be a whole number of days, or null for lifetime')
  .min(1, PLAN_DURATION_RANGE)
  .max(planLimits.durationDays, PLAN_DURATION_RANGE)
  .nullable();

const planUpdatesForDays = z
  .number({ error: 'Updates must be a whole number of days, or null for every release' })
  .int('Updates must be a whole number of days, or null for every release')
  .min(1, PLAN_UPDATES_RANGE)
  .max(planLimits.durationDays, PLAN_UPDATES_RANGE)
  .nullable();

const planEntitlements = entitlementCodesField('A plan');

export const FLOATING_NEEDS_SEATS = 'A floating plan needs its number of seats';
const SEATS_RANGE = `Seats must be between 1 and ${planLimits.seats}`;
const LEASE_RANGE = `Lease must be between ${planLimits.minLeaseMinutes} and ${planLimits.maxLeaseMinutes} minutes`;
const BORROW_RANGE = `Borrowing must be between 0 and ${planLimits.maxBorrowDays} days`;
const planFloatingFields = {
  floating: z.boolean({ error: 'floating must be true or false' }),
  seats: z
    .number({ error: 'Seats must be a whole number' })
    .int('Seats must be a whole number')
    .min(1, SEATS_RANGE)
    .max(planLimits.seats, SEATS_RANGE)
    .nullable(),
  leaseMinutes: z
    .number({ error: 'Lease must be a whole number of minutes' })
    .int('Lease must be a whole number of minutes')
    .min(planLimits.minLeaseMinutes, LEASE_RANGE)
    .max(planLimits.maxLeaseMinutes, LEASE_RANGE),
  maxBorrowDays: z
    .number({ error: 'Borrowing must be a whole number of days' })
    .int('Borrowing must be a whole number of days')
    .min(0, BORROW_RANGE)
    .max(planLimits.maxBorrowDays, BORROW_RANGE),
};

/** POST /api/applications/:id/plans. Only the name is required; no duration is lifetime. */
export const createPlanRequestSchema = z
  .object({
    name: planName,
    durationDays: planDuration.default(null),
    entitlements: planEntitlements.default([]),
    description: planDescription.default(null),
    maxDevices: planMaxDevicesField.default(null),
    updatesForDays: planUpdatesForDays.default(null),
    updatesFrom: updatesFromSchema.default('redemption'),
    meters: planMetersField.default([]),
    floating: planFloatingFields.floating.default(false),
    seats: planFloatingFields.seats.default(null),
    leaseMinutes: planFloatingFields.leaseMinutes.default(planLimits.defaultLeaseMinutes),
    maxBorrowDays: planFloatingFields.maxBorrowDays.default(0),
  })
  .refine((plan) => !plan.floating || plan.seats !== null, {
    message: FLOATING_NEEDS_SEATS,
    path: ['seats'],
  });
export type CreatePlanRequest = z.input<typeof createPlanRequestSchema>;
export type CreatePlanInput = z.output<typeof createPlanRequestSchema>;

/** PUT /api/applications/:id/plans/:planId: any subset; absent fields stay as they are. */
export const updatePlanRequestSchema = z.object({
  name: planName.optional(),
  durationDays: planDuration.optional(),
  entitlements: planEntitlements.optional(),
  description: planDescription.optional(),
  maxDevices: planMaxDevicesField.optional(),
  updatesForDays: planUpdatesForDays.optional(),
  updatesFrom: updatesFromSchema.optional(),
  meters: planMetersField.optional(),
  floating: planFloatingFields.floating.optional(),
  seats: planFloatingFields.seats.optional(),
  leaseMinutes: planFloatingFields.leaseMinutes.optional(),
  maxBorrowDays: planFloatingFields.maxBorrowDays.optional(),
  archived: z.boolean({ error: 'archived must be true or false' }).optional(),
});
export type UpdatePlanRequest = z.input<typeof updatePlanRequestSchema>;
export type UpdatePlanInput = z.output<typeof updatePlanRequestSchema>;

/** Path parameters of /api/applications/:id/plans/:planId. */
export const planParamsSchema = z.object({
  id: applicationIdSchema,
  planId: z.uuid('Invalid plan id'),
});
