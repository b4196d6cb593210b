import { and, eq, gt, isNull, or } from 'drizzle-orm';
import type { ClientApiCode } from '@latchkey/contracts';
import type { Database } from '../../db/client.ts';
import { licenseKeys, plans } from '../../db/schema/index.ts';
import { extendSubscription } from '../subscriptions/extend-subscription.ts';
import { licenseKeyDigest } from './license-key-secrets.ts';

export type LicenseRefusalCode = Extract<
  ClientApiCode,
  'LICENSE_INVALID' | 'LICENSE_USED' | 'LICENSE_BANNED' | 'LICENSE_EXPIRED'
>;

export type Redemption =
  | { isRedeemed: true; licenseId: string; planId: string; planName: string }
  | { isRedeemed: false; code: LicenseRefusalCode; licenseId: string | null };

/** Longest key text looked up; a longer one cannot be a key any mask makes. */
const MAX_KEY_LENGTH = 128;

/**
 * Redeems a key of `applicationId` for an end user, inside the caller's transaction: marks it
 * used by one conditional UPDATE (still unused, not past its redeem-by date), so of two
 * clients redeeming one key exactly one wins, then extends the user's subscription of the
 * key's plan (extendSubscription) and records on the key what it added, for a later ban.
 * A key of another application is not found here, exactly like an unknown one.
 */
export async function redeemLicenseKey(
  tx: Database,
  input: {
    applicationId: number;
    appUserId: string;
    key: string;
    now: Date;
    serverSecret: string;
  },
): Promise<Redemption> {
  const { now } = input;
  const text = input.key.trim();
  if (text === '' || text.length > MAX_KEY_LENGTH) {
    return { isRedeemed: false, code: 'LICENSE_INVALID', licenseId: null };
  }
  const ofKey = and(
    eq(licenseKeys.applicationId, input.applicationId),
    eq(licenseKeys.keyDigest, licenseKeyDigest(text, input.serverSecret)),
  );
  const [claimed] = await tx
    .update(licenseKeys)
    .set({ state: 'used', usedByUserId: input.appUserId, usedAt: now })
    .where(
      and(
        ofKey,
        eq(licenseKeys.state, 'unused'),
        or(isNull(licenseKeys.redeemBy), gt(licenseKeys.redeemBy, now)),
      ),
    )
    .returning({ id: licenseKeys.id, planId: licenseKeys.planId });
  if (!claimed) return refusalFor(tx, ofKey, now);

  const [plan] = await tx
    .select({ name: plans.name, durationDays: plans.durationDays })
    .from(plans)
    .where(eq(plans.id, claimed.planId));
  if (!plan) throw new Error('a key without its plan');
  const grant = await extendSubscription(tx, {
    applicationId: input.applicationId,
    appUserId: input.appUserId,
    planId: claimed.planId,
    durationDays: plan.durationDays,
    now,
  });
  await tx
    .update(licenseKeys)
    .set({
      subscriptionId: grant.subscriptionId,
      grantedDays: grant.grantedDays,
      isGrantedLifetime: grant.isLifetime,
    })
    .where(eq(licenseKeys.id, claimed.id));
  return { isRedeemed: true, licenseId: claimed.id, planId: claimed.planId, planName: plan.name };
}

/** Why a key could not be redeemed: the row as it is now (locked by nothing: a read). */
async function refusalFor(
  tx: Database,
  ofKey: ReturnType<typeof and>,
  now: Date,
): Promise<Redemption> {
  const [key] = await tx
    .select({ id: licenseKeys.id, state: licenseKeys.state, redeemBy: licenseKeys.redeemBy })
    .from(licenseKeys)
    .where(ofKey);
  if (!key) return { isRedeemed: false, code: 'LICENSE_INVALID', licenseId: null };
  const code: LicenseRefusalCode =
    key.state === 'banned'
      ? 'LICENSE_BANNED'
      : key.state === 'used'
        ? 'LICENSE_USED'
        : key.redeemBy && key.redeemBy <= now
          ? 'LICENSE_EXPIRED'
          : 'LICENSE_INVALID';
  return { isRedeemed: false, code, licenseId: key.id };
}
