import { z } from 'zod';
import { applicationIdSchema } from './applications.ts';
import { errorCodeSchema } from './errors.ts';
import { fieldProblemSchema } from './field-problems.ts';

/**
 * The management API: `/api/manage/v1`, `Authorization: Bearer lk_…`, JSON in and out, the
 * owner API's field names and shapes. Every error is RFC 9457 problem+json.
 */
export const MANAGEMENT_API_PREFIX = '/api/manage/v1';

/** How long an Idempotency-Key's answer is kept and replayed. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60_000;

export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

/** Every refusal of the management API. `code` is stable; `detail` is for people. */
export const problemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: errorCodeSchema,
    /** SCOPE_MISSING: the scope the token lacks. */
    scope: z.string().optional(),
    /** PERMISSION_MISSING: the permission the token's creator no longer holds. */
    permission: z.string().optional(),
    /** BAD_REQUEST for a refused body: every refused field with its problem. */
    fields: z.array(fieldProblemSchema).optional(),
  })
  .meta({
    id: 'Problem',
    description: 'RFC 9457 problem details with a stable `code`.',
  });
export type Problem = z.infer<typeof problemSchema>;

/** The rate-limit answer headers (IETF draft "RateLimit header fields for HTTP"). */
export const rateLimitHeaders = {
  limit: 'ratelimit-limit',
  remaining: 'ratelimit-remaining',
  reset: 'ratelimit-reset',
} as const;

const headerNumber = z.string().regex(/^\d+$/);

/** On every answer to an authenticated call: the token's budget for the current minute. */
export const rateLimitHeadersSchema = z.object({
  [rateLimitHeaders.limit]: headerNumber.meta({ description: 'Calls a token may make a minute.' }),
  [rateLimitHeaders.remaining]: headerNumber.meta({ description: 'Calls left this window.' }),
  [rateLimitHeaders.reset]: headerNumber.meta({ description: 'Seconds until the window resets.' }),
});

/** A refusal before the token is known has no budget to report. */
export const problemHeadersSchema = rateLimitHeadersSchema.partial();

/** 429: the budget, and when to retry. */
export const rateLimitedHeadersSchema = problemHeadersSchema.extend({
  'retry-after': headerNumber.meta({ description: 'Seconds to wait before retrying.' }),
});

export const managementMessages = {
  tokenMissing: 'Send the token as Authorization: Bearer lk_…',
  tokenInvalid: 'The token is unknown, revoked or expired',
  ipNotAllowed: (ip: string) => `This token may not be used from ${ip}`,
  scopeMissing: (scope: string) => `This token lacks the scope ${scope}`,
  permissionMissing: (label: string) =>
    `The token's creator no longer holds the "${label}" permission`,
  rateLimited: 'Too many requests for this token; retry after the time in Retry-After',
} as const;

/** Path parameters of /api/manage/v1/applications/{id}/users/{userId}/... */
export const managedAppUserParamsSchema = z.object({
  id: applicationIdSchema,
  userId: z.uuid('Invalid user id'),
});

/** Path parameters of /api/manage/v1/applications/{id}/users/{userId}/devices/{deviceId} */
export const managedDeviceParamsSchema = managedAppUserParamsSchema.extend({
  deviceId: z.uuid('Invalid device id'),
});

/** Path parameters of /api/manage/v1/applications/{id}/users/{userId}/subscriptions/{subscriptionId} */
export const managedSubscriptionParamsSchema = managedAppUserParamsSchema.extend({
  subscriptionId: z.uuid('Invalid subscription id'),
});
