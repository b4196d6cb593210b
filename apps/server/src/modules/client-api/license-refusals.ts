import type { ActivityRecord } from '../../events/activity-events.ts';
import type { LicenseRefusalCode } from '../licenses/index.ts';
import { clientMessages, refusal, type ClientOutcome } from './client-outcomes.ts';
import type { LicenseClientContext } from './license-client-context.ts';

/** What a licence event needs of its caller: the client API's context, or the portal's. */
type LicenseRecordContext = Pick<
  LicenseClientContext,
  'licenseThrottles' | 'activity' | 'ipAddress'
> & {
  application: { id: number };
};

export const licenseRefusalMessages: Record<LicenseRefusalCode, string> = {
  LICENSE_INVALID: clientMessages.licenseInvalid,
  LICENSE_USED: clientMessages.licenseUsed,
  LICENSE_BANNED: clientMessages.licenseBanned,
  LICENSE_EXPIRED: clientMessages.licenseExpired,
};

/**
 * A key refused (unknown, used, banned or lapsed): it counts against the licence throttles
 * and is a `license_failed` event, written before the answer. The event names the key's id
 * when the key exists, never its text.
 */
export async function refuseLicense(
  ctx: LicenseRecordContext,
  refused: {
    /** The key as sent: its counter is one of those the failure counts against. */
    licenseKey: string;
    code: LicenseRefusalCode;
    licenseId: string | null;
    username: string | null;
    appUserId: string | null;
    action: 'register' | 'redeem' | 'license_login' | 'portal';
    now: Date;
  },
): Promise<ClientOutcome> {
  const message = licenseRefusalMessages[refused.code];
  await ctx.licenseThrottles.recordFailure({
    applicationId: ctx.application.id,
    ipAddress: ctx.ipAddress,
    licenseKey: refused.licenseKey,
  });
  await ctx.activity.recordActivity({
    applicationId: ctx.application.id,
    appUserId: refused.appUserId,
    username: refused.username,
    event: 'license_failed',
    success: false,
    ipAddress: ctx.ipAddress,
    errorMessage: message,
    metadata: {
      code: refused.code,
      action: refused.action,
      ...(refused.licenseId ? { licenseId: refused.licenseId } : {}),
    },
    createdAt: refused.now,
  });
  return refusal(refused.code, message);
}

/** The `license_redeemed` event of a redemption, for the transaction that made it. */
export function licenseRedeemedRecord(
  ctx: LicenseRecordContext,
  redeemed: {
    appUserId: string;
    username: string;
    licenseId: string;
    planName: string;
    action: 'register' | 'redeem' | 'license_login' | 'portal';
    now: Date;
  },
): ActivityRecord {
  return {
    applicationId: ctx.application.id,
    appUserId: redeemed.appUserId,
    username: redeemed.username,
    event: 'license_redeemed',
    success: true,
    ipAddress: ctx.ipAddress,
    errorMessage: null,
    metadata: {
      code: 'OK',
      action: redeemed.action,
      licenseId: redeemed.licenseId,
      plan: redeemed.planName,
    },
    createdAt: redeemed.now,
  };
}

/**
 * Thrown inside a transaction whose key was refused at the claim (a registration with a key,
 * a key's first login): the user it created rolls back with it.
 */
export class KeyRefused extends Error {
  constructor(
    readonly code: LicenseRefusalCode,
    readonly licenseId: string | null,
  ) {
    super(code);
  }
}
