import { PORTAL_SIGN_IN_FAILED } from '@latchkey/contracts';
import { verifyPassword } from '../../lib/password-hashing.ts';
import { AppError, forbidden, unauthenticated } from '../../lib/errors.ts';
import {
  blockedEventOf,
  clientMessages,
  standingRefusal,
  findUserAndAdmit,
  upgradePasswordHash,
} from '../client-api/index.ts';
import type { PortalContext } from './portal-context.ts';
import { startPortalSession } from './portal-sessions.ts';

/**
 * POST /api/portal/:publicId/session: the end user signs in with their username and password.
 * Login's prologue, throttles and order (blacklist, credentials, standing), so the portal is no
 * softer target for guessing than the client API; an unknown username and a wrong password are
 * the same 401. A wrong password counts as a failed login and is logged as one (action portal).
 * Answers the token for the session cookie.
 */
export async function signInToPortal({
  ctx,
  input,
}: {
  ctx: PortalContext;
  input: { username: string; password: string };
}): Promise<{ token: string; appUserId: string }> {
  const { portal, activity } = ctx;
  if (!portal.isActive) throw forbidden(clientMessages.appDisabled);
  const now = ctx.clock.now();
  const attempt = { applicationId: portal.id, username: input.username, ipAddress: ctx.ipAddress };
  const { user, blockedBy, hasFailuresToClear } = await findUserAndAdmit(ctx, attempt, {
    ownerAccountId: portal.ownerAccountId,
    applicationId: portal.id,
    ipAddress: ctx.ipAddress,
    username: input.username,
    hwid: null,
  });
  const record = (
    event: 'login_failed' | keyof typeof blockedEventOf,
    message: string,
    code: string,
  ) =>
    activity.recordActivity({
      applicationId: portal.id,
      appUserId: user?.id ?? null,
      username: input.username,
      event: event === 'login_failed' ? event : blockedEventOf[event],
      success: false,
      ipAddress: ctx.ipAddress,
      errorMessage: message,
      metadata: {
        action: 'portal',
        code,
        ...(event === 'login_failed' ? {} : { blockedBy: event }),
      },
      createdAt: now,
    });
  if (blockedBy) {
    await record(blockedBy, clientMessages.blacklisted, 'BLACKLISTED');
    throw forbidden(clientMessages.blacklisted);
  }
  const isPasswordCorrect = await verifyPassword(user?.passwordHash ?? null, input.password);
  if (!user || !isPasswordCorrect) {
    await ctx.loginThrottles.recordFailure(attempt, user?.lastLoginIp ?? null);
    if (user) activity.countFailedLogin(user.id);
    await record('login_failed', PORTAL_SIGN_IN_FAILED, 'INVALID_CREDENTIALS');
    throw unauthenticated(PORTAL_SIGN_IN_FAILED);
  }
  if (hasFailuresToClear) await ctx.loginThrottles.recordSuccess(attempt);
  // Paused, inactive, expired or unconfirmed: the portal is closed to them too. Without a
  // subscription it is open (that is where they redeem a key).
  const standing = standingRefusal(portal, { ...user, licensedUntilMs: Infinity }, now);
  if (standing) throw new AppError('FORBIDDEN', standing.message);
  // As a client login does: an imported hash is replaced by our own once the password is proven.
  if (user.passwordHash) {
    await upgradePasswordHash(
      ctx.db,
      { id: user.id, passwordHash: user.passwordHash },
      input.password,
    );
  }
  const token = await startPortalSession(ctx.db, {
    applicationId: portal.id,
    appUserId: user.id,
    now,
    serverSecret: ctx.serverSecret,
  });
  return { token, appUserId: user.id };
}
