import { z } from 'zod';

/** Entitlements per grant (a plan's, a trial's), and the longest code. */
export const entitlementLimits = { perGrant: 50, code: 64 } as const;

/** Short codes a program checks for (`PRO`, `EXPORT_PDF`): letters, digits and `_`. */
export const ENTITLEMENT_CODE_PATTERN = /^[A-Za-z0-9_]{1,64}$/;
export const ENTITLEMENT_CODE_INVALID = `Entitlements must be 1 to ${entitlementLimits.code} letters, digits or _ (such as PRO or EXPORT_PDF)`;

/**
 * A list of entitlement codes, duplicates dropped and sorted, so two spellings of the same
 * list are the same grant. `owner` names what holds them in the too-many message.
 */
export const entitlementCodesField = (owner: string) =>
  z
    .array(
      z
        .string({ error: ENTITLEMENT_CODE_INVALID })
        .regex(ENTITLEMENT_CODE_PATTERN, ENTITLEMENT_CODE_INVALID),
    )
    .max(
      entitlementLimits.perGrant,
      `${owner} can have at most ${entitlementLimits.perGrant} entitlements`,
    )
    .transform((codes) => [...new Set(codes)].sort());
