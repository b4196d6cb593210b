import { z } from 'zod';
import { applicationIdSchema } from './applications.ts';

/**
 * Subscriptions: what an end user holds of a plan, with its own expiry (null is lifetime).
 * Redeeming a key extends one; the owner can grant, extend, shorten and remove.
 */
export const SUBSCRIPTION_NOT_FOUND = 'Subscription not found';
export const SUBSCRIPTION_EXISTS = 'This user already holds that plan: extend it instead';

export const subscriptionSchema = z
  .object({
    id: z.uuid(),
    planId: z.uuid(),
    planName: z.string(),
    /** Null is lifetime. Past it the subscription grants nothing. */
    expiresAt: z.iso.datetime().nullable(),
    /** Sorted codes the plan grants. */
    entitlements: z.array(z.string()),
    isActive: z.boolean(),
    /**
     * The end of its updates window: releases published later are refused to the holder.
     * Null: no window, unless `updatesPendingDays` waits for the holder's next login.
     */
    updatesUntil: z.iso.datetime().nullable(),
    /** Days of updates that start at the holder's next login; null when none wait. */
    updatesPendingDays: z.number().int().nullable(),
  })
  .meta({ id: 'Subscription', description: 'A plan an end user holds, and until when.' });
export type Subscription = z.infer<typeof subscriptionSchema>;
export const subscriptionListSchema = z.array(subscriptionSchema);

const expiresAt = z.iso
  .datetime({
    offset: true,
    error: 'expiresAt must be an ISO 8601 date-time, or null for lifetime',
  })
  .nullable();

/** POST …/users/:userId/subscriptions. Without `expiresAt`, the plan's duration from now. */
export const grantSubscriptionRequestSchema = z.object({
  planId: z.uuid('Please choose a plan'),
  expiresAt: expiresAt.optional(),
});
export type GrantSubscriptionRequest = z.input<typeof grantSubscriptionRequestSchema>;

/**
 * PUT …/subscriptions/:subscriptionId: extend or shorten (null is lifetime); `updatesUntil`
 * moves the end of its updates window (null: every release), absent leaves it as it is.
 */
export const updateSubscriptionRequestSchema = z.object({
  expiresAt,
  updatesUntil: z.iso
    .datetime({
      offset: true,
      error: 'updatesUntil must be an ISO 8601 date-time, or null for every release',
    })
    .nullable()
    .optional(),
});
export type UpdateSubscriptionRequest = z.input<typeof updateSubscriptionRequestSchema>;

export const subscriptionParamsSchema = z.object({
  appId: applicationIdSchema,
  userId: z.uuid('Invalid user id'),
  subscriptionId: z.uuid('Invalid subscription id'),
});
