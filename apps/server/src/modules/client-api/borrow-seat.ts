import type { ClientBorrowInput, ClientLicenseCheckoutResponse } from '@latchkey/contracts';
import { hashToken } from '../../lib/tokens.ts';
import { borrowLease, seatTermsOf } from '../seats/index.ts';
import type { ClientContext } from './client-context.ts';
import { appDisabled, clientMessages, refusal } from './client-outcomes.ts';
import { issueOfflineLicense, licenseCheckoutRecord } from './issue-offline-license.ts';
import { loadLiveSession } from './live-session.ts';

const DAY_MS = 86_400_000;

/**
 * POST /api/v1/session/borrow: a live session of a floating plan's holder borrows its seat for
 * `days` (at most the plan's `maxBorrowDays`, else BORROW_NOT_ALLOWED) and gets an offline
 * licence lasting as long (and no longer than what it grants). The seat stays taken until the
 * borrow ends, even once the session has ended, or until session/return gives it back. The
 * licence binds the session's HWID, as checkout's does.
 */
export async function borrowSeat({
  ctx,
  input,
}: {
  ctx: ClientContext;
  input: ClientBorrowInput;
}): Promise<ClientLicenseCheckoutResponse> {
  const { application } = ctx;
  if (!application.isActive) return appDisabled();
  const live = await loadLiveSession(ctx, input.session_token);
  if (live.refused) return live.refused;
  const { session } = live;
  const now = ctx.clock.now();
  const terms = seatTermsOf(session.held, now);
  if (!terms || terms.maxBorrowDays < input.days) {
    return refusal('BORROW_NOT_ALLOWED', clientMessages.borrowNotAllowed);
  }
  if ((input.encrypt || application.hwidLockEnabled) && session.hwid === null) {
    return refusal('HWID_REQUIRED', clientMessages.licenseNeedsHwid);
  }
  const borrowedUntil = new Date(now.getTime() + input.days * DAY_MS);
  const isBorrowed = await borrowLease(ctx.db, {
    appUserId: session.userId,
    tokenHash: hashToken(input.session_token),
    borrowedUntil,
    now,
  });
  if (!isBorrowed) return refusal('SESSION_INVALID', clientMessages.sessionHoldsNoSeat);
  const { license, content } = issueOfflineLicense({
    application,
    holder: {
      userId: session.userId,
      username: session.username,
      hwid: session.hwid,
      expiresAt: session.expiresAt,
      held: session.held,
    },
    ttlSeconds: input.days * 86_400,
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
      details: { via: 'borrow', borrowedUntil: borrowedUntil.toISOString() },
      now,
    }),
  );
  return {
    success: true,
    message: clientMessages.seatBorrowed,
    code: 'OK',
    license,
    valid_until: content.valid_until,
  };
}
