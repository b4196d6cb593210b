import { z } from 'zod';
import { applicationIdSchema } from './applications.ts';
import { pageQueryFields } from './paging.ts';

/** What a blacklist entry can block. */
export const blacklistTypes = ['ip', 'username', 'email', 'hwid'] as const;
export const blacklistTypeSchema = z.enum(blacklistTypes);
export type BlacklistType = z.infer<typeof blacklistTypeSchema>;

export const blacklistTypeLabels: Record<BlacklistType, string> = {
  ip: 'IP Address',
  username: 'Username',
  email: 'Email',
  hwid: 'Hardware ID',
};

/** Longest accepted values; longer input is a 400. */
export const blacklistLimits = { value: 256, reason: 500 } as const;

export const BLACKLIST_TYPE_AND_VALUE_REQUIRED = 'Please select a type and provide a value';
export const BLACKLIST_INVALID_IP = 'Please enter a valid IP address or CIDR range';
export const BLACKLIST_INVALID_EMAIL = 'Please enter a valid e-mail address';
export const BLACKLIST_DUPLICATE = 'This value is already blacklisted';
export const BLACKLIST_ENTRY_NOT_FOUND = 'Blacklist entry not found';

/**
 * A blacklist entry as the owner API returns it. `applicationId` null (and `application` null)
 * means global: it applies to every application of the owner.
 */
export const blacklistEntrySchema = z
  .object({
    id: z.number().int(),
    type: blacklistTypeSchema,
    value: z.string(),
    reason: z.string().nullable(),
    applicationId: z.number().int().nullable(),
    application: z.object({ name: z.string() }).nullable(),
    isActive: z.boolean(),
    createdAt: z.iso.datetime(),
  })
  .meta({
    id: 'BlacklistEntry',
    description: 'applicationId null: a global entry, applied to every application of the owner.',
  });
export type BlacklistEntry = z.infer<typeof blacklistEntrySchema>;

export const blacklistEntryListSchema = z.array(blacklistEntrySchema);

/** GET /api/blacklist?page=&pageSize=&search=&type=&isActive= (search: value or reason). */
export const blacklistListQuerySchema = z.object({
  ...pageQueryFields,
  isActive: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z
      .enum(['true', 'false'], 'isActive must be true or false')
      .transform((value) => value === 'true')
      .optional(),
  ),
  type: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.enum(blacklistTypes, `type must be one of ${blacklistTypes.join(', ')}`).optional(),
  ),
});
export type BlacklistListQuery = z.input<typeof blacklistListQuerySchema>;

/** One address, or a CIDR range of them (IPv4 /0-32, IPv6 /0-128). */
const ipAddressOrRange = z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()]);
const emailAddress = z.email();

/**
 * POST /api/blacklist. Type and a non-blank value are required; the reason is optional; an
 * absent, null, '' or 'global' applicationId makes the entry global. IP entries are one IPv4
 * or IPv6 address, or a CIDR range (203.0.113.0/24, 2001:db8::/64) that blocks every address
 * in it; e-mail entries are one e-mail address. Matching is exact, except that usernames and
 * e-mails match case-insensitively and ranges match the addresses they hold.
 */
export const createBlacklistEntryRequestSchema = z
  .object({
    // Loose here so a missing or wrong type gets the spec's message below, not a type error.
    type: z.unknown().optional(),
    value: z.unknown().optional(),
    reason: z
      .string()
      .trim()
      .max(blacklistLimits.reason, `Reason must be at most ${blacklistLimits.reason} characters`)
      .nullish()
      .transform((value) => value || null),
    applicationId: z.preprocess(
      (value) =>
        value === null || value === '' || value === 'global'
          ? undefined
          : typeof value === 'number'
            ? String(value)
            : value,
      applicationIdSchema.optional(),
    ),
  })
  .superRefine((body, ctx) => {
    const type = blacklistTypeSchema.safeParse(body.type);
    const value = typeof body.value === 'string' ? body.value.trim() : '';
    if (!type.success || value === '') {
      ctx.addIssue({ code: 'custom', message: BLACKLIST_TYPE_AND_VALUE_REQUIRED });
      return;
    }
    if (value.length > blacklistLimits.value) {
      ctx.addIssue({
        code: 'custom',
        path: ['value'],
        message: `Value must be at most ${blacklistLimits.value} characters`,
      });
    } else if (type.data === 'ip' && !ipAddressOrRange.safeParse(value).success) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: BLACKLIST_INVALID_IP });
    } else if (type.data === 'email' && !emailAddress.safeParse(value).success) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: BLACKLIST_INVALID_EMAIL });
    }
  })
  .transform((body) => ({
    type: body.type as BlacklistType,
    value: (body.value as string).trim(),
    reason: body.reason,
    applicationId: body.applicationId ?? null,
  }));
export type CreateBlacklistEntryRequest = z.input<typeof createBlacklistEntryRequestSchema>;
export type CreateBlacklistEntryInput = z.output<typeof createBlacklistEntryRequestSchema>;

/** Path parameters of DELETE /api/blacklist/:entryId. */
export const blacklistEntryParamsSchema = z.object({
  entryId: z
    .string()
    .regex(/^[1-9]\d{0,9}$/, 'Invalid blacklist entry id')
    .transform(Number)
    .refine((id) => id <= 2_147_483_647, 'Invalid blacklist entry id'),
});
