import { z } from 'zod';
import { appUserExpiresAtField } from './app-users.ts';
import { pageQueryFields } from './paging.ts';

/** What a bulk action on end users can do, each as its single-user action does. */
export const bulkAppUserActions = [
  'pause',
  'unpause',
  'set_expiry',
  'extend',
  'reset_hwid',
  'delete',
] as const;
export type BulkAppUserAction = (typeof bulkAppUserActions)[number];

export const bulkAppUserActionLabels: Record<BulkAppUserAction, string> = {
  pause: 'Pause',
  unpause: 'Unpause',
  set_expiry: 'Set expiry',
  extend: 'Extend',
  reset_hwid: 'Reset HWID',
  delete: 'Delete',
};

export const bulkAppUserLimits = {
  /** Users changed in one transaction; progress is reported after each batch. */
  batchSize: 1_000,
  /** Ids named in one request (the console sends a search instead for "all matching"). */
  userIds: 10_000,
  /** Days one extension may add: ten years. */
  extendDays: 3_650,
} as const;

/**
 * A bulk request's body may be larger than the owner API's usual limit: every id named, each
 * 36 characters with its quotes and comma, and the rest of the body.
 */
export const BULK_BODY_LIMIT_BYTES = bulkAppUserLimits.userIds * 40 + 4096;

/** Why a user was left as they were; each has a label the console shows with its count. */
export const bulkSkipReasons = [
  'not_found',
  'already_paused',
  'not_paused',
  'same_expiry',
  'never_expires',
  'no_hwid',
] as const;
export type BulkSkipReason = (typeof bulkSkipReasons)[number];

export const bulkSkipReasonLabels: Record<BulkSkipReason, string> = {
  not_found: 'not found (deleted meanwhile)',
  already_paused: 'already paused',
  not_paused: 'not paused',
  same_expiry: 'already has this expiry',
  never_expires: 'never expires (nothing to extend)',
  no_hwid: 'no HWID to reset',
};

/**
 * POST /api/applications/:id/users/bulk. The users are either named (`userIds`) or every user
 * the list would show for `matching` (the same search as GET …/users?search=). `operationId`
 * is the client's own id, so it can match the `bulk_progress` events that arrive before the
 * answer.
 */
export const bulkAppUserRequestSchema = z
  .object({
    operationId: z.uuid('operationId must be a UUID'),
    action: z.enum(bulkAppUserActions, `action must be one of ${bulkAppUserActions.join(', ')}`),
    /** For set_expiry: the new expiry; null or '' is "never expires". */
    expiresAt: appUserExpiresAtField,
    /** For extend: days added to the later of the current expiry and now. */
    days: z
      .number('days must be a whole number')
      .int('days must be a whole number')
      .min(1, 'days must be at least 1')
      .max(bulkAppUserLimits.extendDays, `days must be at most ${bulkAppUserLimits.extendDays}`)
      .optional(),
    userIds: z
      .array(z.uuid('Invalid user id'))
      .min(1, 'Select at least one user')
      .max(bulkAppUserLimits.userIds, `At most ${bulkAppUserLimits.userIds} user ids at once`)
      .optional(),
    matching: z.object({ search: pageQueryFields.search }).strict().optional(),
  })
  .strict()
  .superRefine((value, ctx) => {
    if ((value.userIds === undefined) === (value.matching === undefined)) {
      ctx.addIssue({ code: 'custom', message: 'Give either userIds or matching' });
    }
    if (value.action === 'set_expiry' && value.expiresAt === undefined) {
      ctx.addIssue({ code: 'custom', message: 'expiresAt is required to set the expiry' });
    }
    if (value.action === 'extend' && value.days === undefined) {
      ctx.addIssue({ code: 'custom', message: 'days is required to extend' });
    }
  });
export type BulkAppUserRequest = z.input<typeof bulkAppUserRequestSchema>;
export type BulkAppUserInput = z.output<typeof bulkAppUserRequestSchema>;

/** The answer, once every batch is done: what was changed, and what was skipped and why. */
export const bulkAppUserResultSchema = z
  .object({
    operationId: z.uuid(),
    action: z.enum(bulkAppUserActions),
    total: z.number().int().nonnegative(),
    done: z.number().int().nonnegative(),
    skipped: z.number().int().nonnegative(),
    skippedReasons: z.array(
      z.object({ reason: z.enum(bulkSkipReasons), count: z.number().int().positive() }),
    ),
  })
  .meta({
    id: 'BulkAppUserResult',
    description: 'A finished bulk action: users changed, and users skipped with the reasons.',
  });
export type BulkAppUserResult = z.infer<typeof bulkAppUserResultSchema>;
