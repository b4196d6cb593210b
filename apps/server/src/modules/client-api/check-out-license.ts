import {
  offlineLicenseLimits,
  type ClientLicenseCheckoutInput,
  type ClientLicenseCheckoutResponse,
} from '@latchkey/contracts';
import { invalidRequest } from './client-api-error.ts';
import type { ClientContext } from './client-context.ts';
import { appDisabled, clientMessages, refusal } from './client-outcomes.ts';
import { loadLiveSession } from './live-session.ts';
import { issueOfflineLicense, licenseCheckoutRecord } from './issue-offline-license.ts';

/**
 * POST /api/v1/license/checkout: a live session's holder takes a signed licence to
 * run offline until `valid_until`. Live: started with session/track start and not ended, its
 * user in good standing now (the answers of a heartbeat: SESSION_INVALID, ACCOUNT_DISABLED,
 * ACCOUNT_EXPIRED, NO_ACTIVE_SUBSCRIPTION). The licence binds the session's HWID, the one its
 * login sent (the machine the program runs on; with several devices, the user's first one
 * would be another machine's); a licence that must be bound (encrypted, or under HWID lock)
 * and has none is refused with HWID_REQUIRED rather than issued unbound.
 *
 * Nothing can recall a licence once issued: pausing, deleting or banning the user stops the
 * next checkout, not this one. The TTL (capped by the application's `maxOfflineDays`) is the
 * vendor's lever. Not the hot path: one indexed read, a signature, and the event's write,
 * which is acknowledged before the answer.
 */
export async function checkOutLicense({
  ctx,
  input,
}: {
  ctx: ClientContext;
  input: ClientLicenseCheckoutInput;
}): Promise<ClientLicenseCheckoutResponse> {
  const { application } = ctx;
  const maxTtlSeconds = application.maxOfflineDays * 86_400;
  // Out of the application's bounds is a malformed request, like any other bad value.
  if (input.ttl_seconds !== null && input.ttl_seconds > maxTtlSeconds) {
    throw invalidRequest(
      `ttl_seconds must be at most ${maxTtlSeconds} (this application's ${application.maxOfflineDays} offline days)`,
    );
  }
  if (!application.isActive) return appDisabled();
  const live = await loadLiveSession(ctx, input.session_token);
  if (live.refused) return live.refused;
  const { session } = live;
  const now = ctx.clock.now();
  const { held } = session;
  const isBindingRequired = input.encrypt || application.hwidLockEnabled;
  if (isBindingRequired && session.hwid === null) {
    return refusal('HWID_REQUIRED', clientMessages.licenseNeedsHwid);
  }

  const ttlSeconds =
    input.ttl_seconds ?? Math.min(offlineLicenseLimits.defaultTtlSeconds, maxTtlSeconds);
  const { license, content } = issueOfflineLicense({
    application,
    holder: {
      userId: session.userId,
      username: session.username,
      hwid: session.hwid,
      expiresAt: session.expiresAt,
      held,
    },
    ttlSeconds,
    encrypt: input.encrypt,
    now,
  });
  await ctx.activity.recordActivity(
    licenseCheckoutRecord({
      applicationId: application.id,
      holder: session,
      content,
      isEncrypted: input.encrypt,
      ipAddress: ctx.ipAddress,
      details: { ttlSeconds },
      now,
    }),
  );
  return {
    success: true,
    message: clientMessages.licenseCheckedOut,
    code: 'OK',
    license,
    valid_until: content.valid_until,
  };
}
