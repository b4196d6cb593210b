import { randomUUID } from 'node:crypto';
import type { OfflineLicenseContent } from '@latchkey/contracts';
import type { ActivityRecord } from '../../events/activity-events.ts';
import type { Ed25519Signer } from '../../lib/ed25519-signer.ts';
import { licensingOf, type HeldSubscription } from '../subscriptions/index.ts';
import { encodeOfflineLicense } from './offline-license-format.ts';

/** What a licence is signed for: the holder as they stand now, on one machine. */
export interface OfflineLicenseHolder {
  userId: string;
  username: string;
  /** The machine it is bound to; null: unbound (no HWID was ever sent). */
  hwid: string | null;
  expiresAt: Date | null;
  held: HeldSubscription[];
}

/**
 * A signed offline licence for `holder`, valid for `ttlSeconds` at most: `valid_until` is the
 * earliest of that, the account's expiry and the expiries its entitlements depend on, so a
 * licence never outlives what it grants. Encrypted to the HWID when `encrypt` and one is bound.
 * Shared by a live session's checkout and the portal's offline activation.
 */
export function issueOfflineLicense(input: {
  application: {
    id: number;
    sign: Ed25519Signer;
    signingPublicKey: string;
    isLicenseRequired: boolean;
  };
  holder: OfflineLicenseHolder;
  ttlSeconds: number;
  encrypt: boolean;
  now: Date;
}): { license: string; content: OfflineLicenseContent } {
  const { application, holder, now } = input;
  const licensing = licensingOf(holder.held, now);
  const validUntil = new Date(
    Math.min(
      now.getTime() + input.ttlSeconds * 1000,
      holder.expiresAt?.getTime() ?? Infinity,
      dependedOnUntilMs(holder.held, now, application.isLicenseRequired),
    ),
  );
  const content: OfflineLicenseContent = {
    application_id: application.id,
    user_id: holder.userId,
    username: holder.username,
    hwid: holder.hwid,
    entitlements: licensing.answer.entitlements,
    subscriptions: licensing.answer.subscriptions,
    account_expires_at: holder.expiresAt?.toISOString() ?? null,
    updates_until: licensing.answer.updates_until,
    ...(licensing.answer.meters ? { meters: licensing.answer.meters } : {}),
    issued_at: now.toISOString(),
    valid_until: validUntil.toISOString(),
    id: randomUUID(),
  };
  const license = encodeOfflineLicense(
    content,
    application.sign,
    input.encrypt && holder.hwid !== null
      ? { hwid: holder.hwid, signingPublicKeyHex: application.signingPublicKey }
      : null,
  );
  return { license, content };
}

/**
 * The `license_checkout` event of an issued licence: its id and terms, never the licence itself
 * (a bearer credential). `details` says how it was issued (`via`, the borrow, the request's
 * nonce, the TTL asked for).
 */
export function licenseCheckoutRecord(input: {
  applicationId: number;
  holder: Pick<OfflineLicenseHolder, 'userId' | 'username' | 'hwid'>;
  content: OfflineLicenseContent;
  isEncrypted: boolean;
  ipAddress: string;
  details: Record<string, unknown>;
  now: Date;
}): ActivityRecord {
  return {
    applicationId: input.applicationId,
    appUserId: input.holder.userId,
    username: input.holder.username,
    event: 'license_checkout',
    success: true,
    ipAddress: input.ipAddress,
    errorMessage: null,
    metadata: {
      code: 'OK',
      ...input.details,
      licenseId: input.content.id,
      hwid: input.holder.hwid,
      validUntil: input.content.valid_until,
      isEncrypted: input.isEncrypted,
    },
    createdAt: input.now,
  };
}

/**
 * Until when what the licence grants holds without a renewal: for each entitlement, the latest
 * expiry of the active subscriptions granting it (one lapsing while another grants the same code
 * takes nothing away), the earliest of those; and where the application requires a licence, the
 * latest expiry of any active subscription (standing needs one). Infinity when nothing lapses.
 */
function dependedOnUntilMs(
  held: HeldSubscription[],
  now: Date,
  isLicenseRequired: boolean,
): number {
  const nowMs = now.getTime();
  const endsOf = (subscription: HeldSubscription) => subscription.expiresAt?.getTime() ?? Infinity;
  const active = held.filter((subscription) => endsOf(subscription) > nowMs);
  const entitlementEnds = new Map<string, number>();
  for (const subscription of active) {
    for (const code of subscription.entitlements) {
      entitlementEnds.set(
        code,
        Math.max(entitlementEnds.get(code) ?? -Infinity, endsOf(subscription)),
      );
    }
  }
  let until = Math.min(Infinity, ...entitlementEnds.values());
  if (isLicenseRequired) until = Math.min(until, Math.max(...active.map(endsOf)));
  return until;
}
