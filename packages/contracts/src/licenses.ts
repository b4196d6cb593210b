import { z } from 'zod';
import { applicationIdSchema } from './applications.ts';
import { CLEAN_TEXT_MESSAGE, isCleanText } from './clean-text.ts';
import {
  DEFAULT_LICENSE_KEY_MASK,
  licenseKeyCases,
  licenseKeyMaskProblem,
  MAX_LICENSE_KEY_MASK_LENGTH,
} from './license-key-masks.ts';
import { pageQueryFields } from './paging.ts';

/**
 * Licence keys: generated in bulk for one plan, redeemed by an end user's program. Identifiers
 * say `license`; the console's words say licence.
 */
export const licenseLimits = {
  /** Keys per generate request. */
  generate: 10_000,
  note: 200,
  bannedReason: 200,
} as const;

/** `expired` is an unused key past its redeem-by date. */
export const licenseStatuses = ['unused', 'used', 'banned', 'expired'] as const;
export type LicenseStatus = (typeof licenseStatuses)[number];

export const LICENSE_NOT_FOUND = 'Licence key not found';
export const LICENSE_PLAN_ARCHIVED = 'This plan is archived: it gets no new keys';
export const LICENSE_BAN_REASON_REQUIRED = 'Please enter a reason for the ban';
export const LICENSE_COUNT_RANGE = `Count must be a whole number from 1 to ${licenseLimits.generate}`;
export const LICENSE_REDEEM_BY_PAST = 'The redeem-by date must be in the future';

/**
 * A key as the owner's list shows it: `key` is its display form, all hidden but the last four
 * and, where the key can spare them, its first few (`ABCDE-•••••-•••••-•••••-•K2X9`).
 */
export const licenseSchema = z
  .object({
    id: z.uuid(),
    key: z.string(),
    planId: z.uuid(),
    status: z.enum(licenseStatuses),
    note: z.string().nullable(),
    redeemBy: z.iso.datetime().nullable(),
    usedByUserId: z.uuid().nullable(),
    usedByUsername: z.string().nullable(),
    usedAt: z.iso.datetime().nullable(),
    bannedReason: z.string().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'License', description: 'A licence key of an application (its text hidden).' });
export type License = z.infer<typeof licenseSchema>;
export const licenseListSchema = z.array(licenseSchema);

/** The columns of the CSV export, in order; there `key` is the whole key. */
export const licenseCsvColumns = [
  'id',
  'key',
  'planId',
  'status',
  'note',
  'redeemBy',
  'usedByUserId',
  'usedByUsername',
  'usedAt',
  'bannedReason',
  'createdAt',
] as const satisfies readonly (keyof License)[];

const cleanText = (field: string, max: number) =>
  z
    .string(`${field} must be text`)
    .refine(isCleanText, { message: CLEAN_TEXT_MESSAGE, abort: true })
    .trim()
    .max(max, `${field} must be at most ${max} characters`);

/** POST /api/applications/:id/licenses. */
/** The most keys one mail carries (a batch mailed at generation). */
export const MAX_LICENSE_KEYS_PER_MAIL = 100;

/** POST /api/applications/:id/licenses/:licenseId/email: where to mail the key. */
export const emailLicenseRequestSchema = z.object({
  to: z.preprocess(
    (value) => (typeof value === 'string' ? value.trim() : value),
    z.email('Please enter a valid e-mail address').max(254, 'The address is too long'),
  ),
});
export type EmailLicenseRequest = z.input<typeof emailLicenseRequestSchema>;

export const LICENSE_BANNED_NOT_MAILED = 'A banned key cannot be sent';

export const generateLicensesRequestSchema = z
  .object({
    planId: z.uuid('Please choose a plan'),
    count: z
      .number(LICENSE_COUNT_RANGE)
      .int(LICENSE_COUNT_RANGE)
      .min(1, LICENSE_COUNT_RANGE)
      .max(licenseLimits.generate, LICENSE_COUNT_RANGE),
    mask: z
      .string('mask must be text')
      .max(MAX_LICENSE_KEY_MASK_LENGTH * 4, 'mask is too long')
      .default(DEFAULT_LICENSE_KEY_MASK),
    case: z.enum(licenseKeyCases, 'case must be upper, lower or mixed').default('upper'),
    /** Blank is no note. */
    note: cleanText('note', licenseLimits.note)
      .nullable()
      .default(null)
      .transform((value) => value || null),
    /** After it an unused key can no longer be redeemed; null is never. */
    redeemBy: z.iso
      .datetime({ offset: true, error: 'redeemBy must be an ISO 8601 date-time' })
      .nullable()
      .default(null),
    /** Mails the keys (one mail) to this address, e.g. the buyer's; blank or null is none. */
    emailTo: z.preprocess(
      (value) => (typeof value === 'string' ? value.trim() || null : value),
      z.email('emailTo must be an e-mail address').max(254).nullable().default(null),
    ),
  })
  .superRefine((request, context) => {
    if (request.emailTo !== null && request.count > MAX_LICENSE_KEYS_PER_MAIL) {
      context.addIssue({
        code: 'custom',
        path: ['count'],
        message: `One mail carries at most ${MAX_LICENSE_KEYS_PER_MAIL} keys`,
      });
    }
    const problem = licenseKeyMaskProblem(request.mask, request.case);
    if (problem) context.addIssue({ code: 'custom', path: ['mask'], message: problem });
  });
export type GenerateLicensesRequest = z.input<typeof generateLicensesRequestSchema>;
export type GenerateLicensesInput = z.output<typeof generateLicensesRequestSchema>;

/** The new keys, whole: the one answer (besides reveal and export) that holds their text. */
export const generatedLicensesSchema = z
  .object({ keys: z.array(z.object({ id: z.uuid(), key: z.string() })) })
  .meta({ id: 'GeneratedLicenses' });
export type GeneratedLicenses = z.infer<typeof generatedLicensesSchema>;

/** GET /api/applications/:id/licenses and its export.csv. */
export const licenseListQuerySchema = z.object({
  ...pageQueryFields,
  status: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.enum(licenseStatuses, 'status must be unused, used, banned or expired').optional(),
  ),
  planId: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.uuid('Invalid plan id').optional(),
  ),
});
export type LicenseListQuery = z.input<typeof licenseListQuerySchema>;
export type LicenseFilter = Pick<
  z.output<typeof licenseListQuerySchema>,
  'search' | 'status' | 'planId'
>;

/** Path parameters of /api/applications/:id/licenses/:licenseId. */
export const licenseParamsSchema = z.object({
  id: applicationIdSchema,
  licenseId: z.uuid('Invalid licence key id'),
});

/** GET …/licenses/:licenseId/key. */
export const revealedLicenseSchema = z
  .object({ key: z.string() })
  .meta({ id: 'RevealedLicense', description: 'The whole text of one licence key.' });

/** POST …/licenses/:licenseId/ban. */
export const banLicenseRequestSchema = z.object({
  reason: z
    .string(LICENSE_BAN_REASON_REQUIRED)
    .refine(isCleanText, { message: CLEAN_TEXT_MESSAGE, abort: true })
    .trim()
    .min(1, LICENSE_BAN_REASON_REQUIRED)
    .max(
      licenseLimits.bannedReason,
      `reason must be at most ${licenseLimits.bannedReason} characters`,
    ),
});
export type BanLicenseRequest = z.input<typeof banLicenseRequestSchema>;

/** POST /api/applications/:id/plans/:planId/delete-unused. */
export const deletedUnusedLicensesSchema = z
  .object({ success: z.literal(true), message: z.string(), deletedCount: z.number().int() })
  .meta({ id: 'DeletedUnusedLicenses' });
export type DeletedUnusedLicenses = z.infer<typeof deletedUnusedLicensesSchema>;
