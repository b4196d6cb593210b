import { z } from 'zod';
import { clientApiCodeSchema, clientSessionTokenField } from './client-api.ts';
import type { ClientCallEntry } from './client-call-entry.ts';
import { METER_NAME_INVALID, METER_NAME_PATTERN, meterLimits } from './meters.ts';

const AMOUNT_RANGE = `amount must be a whole number from 1 to ${meterLimits.amount}`;
const IDEMPOTENCY_KEY_INVALID = `idempotency_key must be 1 to ${meterLimits.idempotencyKey} visible ASCII characters`;

/** The path parameter of /api/v1/meters/{name}/use. */
export const clientMeterParamsSchema = z.object({
  name: z.string().regex(METER_NAME_PATTERN, METER_NAME_INVALID),
});

/**
 * POST /api/v1/meters/{name}/use: count `amount` units (1 unless sent) against the session's
 * user's meter. An increment sent again with the same `idempotency_key` counts once and is
 * answered as the first time.
 */
export const clientUseMeterRequestSchema = z.object({
  session_token: clientSessionTokenField,
  amount: z
    .number({ error: AMOUNT_RANGE })
    .int(AMOUNT_RANGE)
    .min(1, AMOUNT_RANGE)
    .max(meterLimits.amount, AMOUNT_RANGE)
    .default(1),
  idempotency_key: z
    .string({ error: IDEMPOTENCY_KEY_INVALID })
    .regex(/^[\x21-\x7e]{1,128}$/, IDEMPOTENCY_KEY_INVALID)
    .nullish()
    .transform((value) => value ?? null),
});
export type ClientUseMeterRequest = z.input<typeof clientUseMeterRequestSchema>;
export type ClientUseMeterInput = z.output<typeof clientUseMeterRequestSchema> &
  z.output<typeof clientMeterParamsSchema>;

/** The answer of meters/{name}/use: where the meter stands after it (or after the refusal). */
export const clientUseMeterResponseSchema = z
  .object({
    success: z.boolean(),
    message: z.string(),
    code: clientApiCodeSchema,
    name: z.string().optional(),
    allowance: z.number().int().optional(),
    used: z.number().int().optional(),
    remaining: z.number().int().optional(),
    overage: z.number().int().optional(),
    resets_at: z.iso.datetime().nullable().optional(),
    /** True when this idempotency_key was counted before: the answer is the first one's. */
    replayed: z.boolean().optional(),
  })
  .meta({
    id: 'ClientUseMeterResponse',
    description:
      'The answer of meters/{name}/use: counted (success true) or refused (METER_EXHAUSTED, METER_NOT_FOUND, or the session\u2019s code), with where the meter stands.',
  });
export type ClientUseMeterResponse = z.infer<typeof clientUseMeterResponseSchema>;

/** The client API's call for usage meters. */
export const meterClientCalls = {
  useMeter: {
    method: 'POST',
    path: '/api/v1/meters/:name/use',
    summary:
      'Counts units against a usage meter of the session\u2019s user, unless it would pass a refusing meter\u2019s allowance.',
    params: clientMeterParamsSchema,
    request: clientUseMeterRequestSchema,
    response: clientUseMeterResponseSchema,
    brief: 'session_token, amount?, idempotency_key?: count use of a metered feature',
  },
} as const satisfies Record<string, ClientCallEntry>;
