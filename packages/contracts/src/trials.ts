import { z } from 'zod';
import { entitlementCodesField } from './entitlements.ts';

/**
 * Trials bound to the machine: an application may offer one trial per machine (HWID), started
 * by the program with POST /api/v1/trial. A reinstall, or a new account on the same machine,
 * gets the trial that machine already had, never a second one.
 */
export const trialLimits = {
  /** The longest trial an application may offer. */
  maxDays: 365,
} as const;

/** The name a trial's grant shows under (the user's subscriptions, the portal). */
export const TRIAL_GRANT_NAME = 'Trial';

const TRIAL_DAYS_RANGE = `Trial days must be between 1 and ${trialLimits.maxDays} (leave it empty for no trial)`;

/** An application's trial settings as the owner API returns them. */
export const applicationTrialFields = {
  /** Days a machine's trial lasts; null: the application offers no trial. */
  trialDays: z.number().int().nullable(),
  /** What a trial grants, as a plan's entitlements would. */
  trialEntitlements: z.array(z.string()),
};

/** The same settings as the owner changes them (absent: unchanged). */
export const applicationTrialSettingsFields = {
  trialDays: z
    .number({ error: 'Trial days must be a whole number' })
    .int('Trial days must be a whole number')
    .min(1, TRIAL_DAYS_RANGE)
    .max(trialLimits.maxDays, TRIAL_DAYS_RANGE)
    .nullable()
    .optional(),
  trialEntitlements: entitlementCodesField('A trial').optional(),
};
