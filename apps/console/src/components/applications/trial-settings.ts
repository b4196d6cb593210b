import type { Application } from '@latchkey/contracts';
import { parseTypedNumber } from '@/lib/typed-number.ts';
import { parseEntitlements } from '@/components/plans/plan-display.ts';

/** The Trial group of the Settings dialog as typed: text until sent, for the contract to judge. */
export interface TrialSettingsFields {
  trialDays: string;
  trialEntitlements: string;
}

export function toTrialSettingsFields(application: Application): TrialSettingsFields {
  return {
    trialDays: application.trialDays?.toString() ?? '',
    trialEntitlements: application.trialEntitlements.join(', '),
  };
}

export function toTrialSettingsRequest(fields: TrialSettingsFields): {
  trialDays: number | null;
  trialEntitlements: string[];
} {
  return {
    // Empty is "no trial"; anything else goes as typed.
    trialDays: fields.trialDays.trim() === '' ? null : parseTypedNumber(fields.trialDays),
    trialEntitlements: parseEntitlements(fields.trialEntitlements),
  };
}
