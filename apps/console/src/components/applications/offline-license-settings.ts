import type { Application } from '@latchkey/contracts';
import { parseTypedNumber } from '@/lib/typed-number.ts';

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
