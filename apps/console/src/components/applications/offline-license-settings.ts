import { updateApplicationRequestSchema, type Application } from '@latchkey/contracts';
import { parseTypedNumber } from '@/lib/typed-number.ts';
import { firstProblem } from '@/lib/first-problem.ts';

/** The Offline licences group of the Settings dialog as typed. */
export interface OfflineLicenseSettingsFields {
  maxOfflineDays: string;
}

export function toOfflineLicenseSettingsFields(
  application: Application,
): OfflineLicenseSettingsFields {
  return { maxOfflineDays: String(application.maxOfflineDays) };
}

export function toOfflineLicenseSettingsRequest(fields: OfflineLicenseSettingsFields): {
  maxOfflineDays: number;
} {
  return { maxOfflineDays: parseTypedNumber(fields.maxOfflineDays) };
}

/**
 * The problem that stops the offline licence settings from being sent, in the words of the
 * contract the server checks them with, or null.
 */
export function findOfflineLicenseSettingsProblem(
  fields: OfflineLicenseSettingsFields,
): string | null {
  return firstProblem(updateApplicationRequestSchema, toOfflineLicenseSettingsRequest(fields));
}
