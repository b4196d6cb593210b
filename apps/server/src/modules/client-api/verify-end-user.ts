import type { ClientVerifyResponse } from '@latchkey/contracts';
import type { ClientContext } from './client-context.ts';
import {
  appDisabled,
  clientMessages,
  refusal,
  standingRefusal,
  UUID_PATTERN,
} from './client-outcomes.ts';
import type { UserStandingLookup } from './user-standing-lookup.ts';
import { licensingOf, type LicensingAnswer } from '../subscriptions/index.ts';
import { serializeOnce } from './serialized-once.ts';

/**
 * POST /api/v1/verify (the hot path: clients call it every 5 minutes). Success only for a
 * user of this API key's application who can log in now: exists, active, not paused, not
 * expired, licensed where the application requires it, and holding every entitlement asked
 * for. The answer names the active subscriptions and their entitlements (worked out once per
 * cached standing, held-subscriptions.ts). Cheapest first: the application (memory), the id's
 * shape (no query for a non-UUID), then one primary-key lookup (usually answered from memory);
 * nothing is hashed or written on the way.
 */
export async function verifyEndUser({
  ctx,
  input,
}: {
  ctx: ClientContext & { userStanding: UserStandingLookup };
  input: { userId: string; entitlements?: string[] | undefined };
}): Promise<ClientVerifyResponse> {
  const { application } = ctx;
  if (!application.isActive) return appDisabled();
  if (!UUID_PATTERN.test(input.userId)) return notFound();
  const user = await ctx.userStanding.load(input.userId);
  // Another application's user is not found here, exactly like an id that does not exist.
  if (!user || user.applicationId !== application.id) return notFound();
  const now = ctx.clock.now();
  const refused = standingRefusal(application, user, now);
  if (refused) return refused;
  const licensing = licensingOf(user.held, now);
  const missing = input.entitlements?.filter((code) => !licensing.entitlements.has(code));
  if (missing?.length) {
    return {
      ...refusal('ENTITLEMENTS_MISSING', clientMessages.entitlementsMissing),
      ...licensing.answer,
      missing_entitlements: [...new Set(missing)].sort(),
    };
  }
  let verified = verifiedAnswers.get(licensing.answer);
  if (!verified) {
    const answer: ClientVerifyResponse = {
      success: true,
      message: clientMessages.verified,
      code: 'OK',
      ...licensing.answer,
    };
    verified = serializeOnce(answer);
    verifiedAnswers.set(licensing.answer, verified);
  }
  return verified;
}

/** Made per refusal, not per call: a closure per verify costs the hot path an allocation. */
function notFound(): ClientVerifyResponse {
  return refusal('USER_NOT_FOUND', clientMessages.userNotFound);
}

/**
 * Verify's success answer for each licensing answer (one per cached standing until a
 * subscription lapses), made and serialized once: the same user verifies every few minutes.
 */
const verifiedAnswers = new WeakMap<LicensingAnswer, ClientVerifyResponse>();
