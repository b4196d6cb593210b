import { z } from 'zod';

/**
 * Usage meters: a plan can allow so many units of something per period (500 exports a month,
 * 10,000 API credits a year). A program counts use with `POST /api/v1/meters/{name}/use`;
 * login, verify and the offline licence say where each meter stands. Periods follow the UTC
 * calendar (a day from midnight, a week from Monday, a month from its first, a year from
 * 1 January), so every instance agrees on when a meter starts again at 0.
 */
export const meterLimits = {
  name: 64,
  /** Meters per plan. */
  metersPerPlan: 20,
  /** A trillion units: credits counted in thousandths still fit. */
  allowance: 1_000_000_000_000,
  /** Units one increment may count. */
  amount: 1_000_000_000,
  idempotencyKey: 128,
} as const;

/** Names a program puts in a URL path: letters, digits, `_` and `-`. */
export const METER_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const METER_NAME_INVALID = `Meter names must be 1 to ${meterLimits.name} letters, digits, _ or -`;
export const METER_NAMES_REPEATED = 'Each meter of a plan needs its own name';
export const METER_ALLOWANCE_RANGE = `Allowance must be a whole number from 0 to ${meterLimits.allowance}`;

/** How often a meter starts again at 0: never, or at each UTC day, week, month or year. */
export const meterResetEverySchema = z.enum(['none', 'day', 'week', 'month', 'year'], {
  error: 'resetEvery must be none, day, week, month or year',
});
export type MeterResetEvery = z.infer<typeof meterResetEverySchema>;

/** Past the allowance: refuse the increment (METER_EXHAUSTED), or count it as overage. */
export const meterOverageSchema = z.enum(['refuse', 'count'], {
  error: 'overage must be refuse or count',
});
export type MeterOverage = z.infer<typeof meterOverageSchema>;

/** A meter as a plan defines it. */
export const planMeterSchema = z
  .object({
    name: z.string(),
    allowance: z.number().int(),
    resetEvery: meterResetEverySchema,
    overage: meterOverageSchema,
  })
  .meta({
    id: 'PlanMeter',
    description: 'A usage meter of a plan: so many units per period, refused or counted beyond.',
  });
export type PlanMeter = z.infer<typeof planMeterSchema>;

const meterName = z
  .string({ error: METER_NAME_INVALID })
  .regex(METER_NAME_PATTERN, METER_NAME_INVALID);

/** A plan's meters as the owner sends them: names unique within the plan. */
export const planMetersField = z
  .array(
    z.object({
      name: meterName,
      allowance: z
        .number({ error: METER_ALLOWANCE_RANGE })
        .int(METER_ALLOWANCE_RANGE)
        .min(0, METER_ALLOWANCE_RANGE)
        .max(meterLimits.allowance, METER_ALLOWANCE_RANGE),
      resetEvery: meterResetEverySchema.default('month'),
      overage: meterOverageSchema.default('refuse'),
    }),
    { error: 'meters must be a list' },
  )
  .max(meterLimits.metersPerPlan, `A plan can have at most ${meterLimits.metersPerPlan} meters`)
  .refine((meters) => new Set(meters.map((meter) => meter.name)).size === meters.length, {
    message: METER_NAMES_REPEATED,
  });

/**
 * Where one usage meter of an end user stands in its current period, as the client API
 * answers it. Meters of the same name in several active subscriptions are one meter: their
 * allowances add up, it resets with the most frequent of their periods, and it counts overage
 * when any of them does.
 */
export const clientMeterSchema = z.object({
  name: z.string(),
  /** Units allowed each period. */
  allowance: z.number().int(),
  used: z.number().int(),
  /** allowance - used, never below 0. */
  remaining: z.number().int(),
  /** Units used beyond the allowance (a meter that counts overage); 0 otherwise. */
  overage: z.number().int(),
  /** When the period ends and `used` starts again at 0; null: a meter that never resets. */
  resets_at: z.iso.datetime().nullable(),
});
export type ClientMeter = z.infer<typeof clientMeterSchema>;

/** One meter of an end user as the owner API, the management API and the portal show it. */
export const userMeterSchema = z
  .object({
    name: z.string(),
    allowance: z.number().int(),
    used: z.number().int(),
    remaining: z.number().int(),
    overage: z.number().int(),
    resetEvery: meterResetEverySchema,
    overageMode: meterOverageSchema,
    /** When the current period began; null for a meter that never resets. */
    periodStartedAt: z.iso.datetime().nullable(),
    resetsAt: z.iso.datetime().nullable(),
  })
  .meta({
    id: 'UserMeter',
    description: 'Where one usage meter of an end user stands in its current period.',
  });
export type UserMeter = z.infer<typeof userMeterSchema>;
export const userMeterListSchema = z.array(userMeterSchema);
