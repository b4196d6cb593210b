import {
  DEFAULT_LICENSE_KEY_MASK,
  generateLicensesRequestSchema,
  LICENSE_REDEEM_BY_PAST,
  licenseKeyMaskBits,
  licenseKeyMaskProblem,
  MIN_LICENSE_KEY_BITS,
  type GeneratedLicenses,
  type GenerateLicensesRequest,
  type LicenseKeyCase,
  type LicenseStatus,
} from '@latchkey/contracts';
import type { BadgeVariant } from '@/components/ui/badge.tsx';
import { contractProblems } from '@/lib/first-problem.ts';

export const LICENSE_STATUS_LABELS: Record<LicenseStatus, string> = {
  unused: 'Unused',
  used: 'Used',
  banned: 'Banned',
  expired: 'Expired',
};

export const LICENSE_STATUS_BADGES: Record<LicenseStatus, BadgeVariant> = {
  unused: 'success',
  used: 'secondary',
  banned: 'danger',
  expired: 'muted',
};

export const LICENSE_CASE_LABELS: Record<LicenseKeyCase, string> = {
  upper: 'Upper case',
  lower: 'Lower case',
  mixed: 'Mixed case',
};

export const PLAN_REQUIRED = 'Please choose a plan';

/** The generate form as typed: the count and the date are text until sent. */
export interface GenerateLicenseFields {
  planId: string;
  count: string;
  mask: string;
  keyCase: LicenseKeyCase;
  note: string;
  /** yyyy-mm-dd from a date input; empty is never. */
  redeemBy: string;
  /** Where to mail the new keys; empty is nowhere. */
  emailTo: string;
}

export const EMPTY_GENERATE_FIELDS: GenerateLicenseFields = {
  planId: '',
  count: '1',
  mask: DEFAULT_LICENSE_KEY_MASK,
  keyCase: 'upper',
  note: '',
  redeemBy: '',
  emailTo: '',
};

/** The end of the chosen day in the owner's time zone: "redeem by" includes that day. */
export function toRedeemByDateTime(date: string): string | null {
  if (date === '') return null;
  const endOfDay = new Date(`${date}T23:59:59.999`);
  return Number.isNaN(endOfDay.getTime()) ? null : endOfDay.toISOString();
}

function parseCount(text: string): number {
  const trimmed = text.trim();
  return /^\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

export function toGenerateLicensesRequest(fields: GenerateLicenseFields): GenerateLicensesRequest {
  return {
    planId: fields.planId,
    count: parseCount(fields.count),
    mask: fields.mask,
    case: fields.keyCase,
    note: fields.note.trim() || null,
    redeemBy: toRedeemByDateTime(fields.redeemBy),
    emailTo: fields.emailTo.trim() || null,
  };
}

/**
 * The form field a request path is about, or undefined for one the form shows no problem at
 * (the case is chosen from a list of valid values).
 */
export function generateLicensesFieldOf(
  path: string,
): Exclude<keyof GenerateLicenseFields, 'keyCase'> | undefined {
  const [first = ''] = path.split('.');
  return first === 'planId' ||
    first === 'count' ||
    first === 'mask' ||
    first === 'note' ||
    first === 'redeemBy' ||
    first === 'emailTo'
    ? first
    : undefined;
}

/**
 * Each field's problem, all at once, empty when the keys may be generated: in the words of the
 * contract the server checks the request with, and the redeem-by day, which the contract cannot
 * check against today.
 */
export function findGenerateLicensesProblems(
  fields: GenerateLicenseFields,
  now = Date.now(),
): Partial<Record<string, string>> {
  const problems = contractProblems(
    generateLicensesRequestSchema,
    toGenerateLicensesRequest(fields),
    (path) => generateLicensesFieldOf(path) ?? '',
  );
  if (fields.planId === '') problems.planId = PLAN_REQUIRED;
  // The contract checks the mask only once the rest of the request is valid; the form says
  // what is wrong with it along with everything else.
  const maskProblem = licenseKeyMaskProblem(fields.mask, fields.keyCase);
  if (maskProblem) problems.mask ??= maskProblem;
  if (fields.redeemBy !== '') {
    const redeemBy = toRedeemByDateTime(fields.redeemBy);
    if (redeemBy === null) problems.redeemBy = 'Please enter a valid redeem-by date';
    else if (new Date(redeemBy).getTime() <= now) problems.redeemBy = LICENSE_REDEEM_BY_PAST;
  }
  return problems;
}

/** How strong a mask is, said while the owner types it: the server's own figures. */
export function describeMaskStrength(
  mask: string,
  keyCase: LicenseKeyCase,
): { text: string; isStrong: boolean } {
  const problem = licenseKeyMaskProblem(mask, keyCase);
  const bits = Math.floor(licenseKeyMaskBits(mask, keyCase));
  if (problem) return { text: problem, isStrong: false };
  return {
    text: `${bits} bits of randomness (at least ${MIN_LICENSE_KEY_BITS} needed): strong enough. Each X is one random character; everything else is kept as written.`,
    isStrong: true,
  };
}

/** One key a line, as a shop or a bot takes them. */
export function toKeysText({ keys }: GeneratedLicenses): string {
  return keys.map(({ key }) => key).join('\n') + '\n';
}

/** id,key with a header row; keys hold only letters, digits, - and _, so nothing needs quoting. */
export function toKeysCsv({ keys }: GeneratedLicenses): string {
  return ['id,key', ...keys.map(({ id, key }) => `${id},${key}`)].join('\n') + '\n';
}
