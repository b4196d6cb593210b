import type { ClientDeviceResetInput, ClientDeviceResetResponse } from '@latchkey/contracts';
import { verifyPassword } from '../../lib/password-hashing.ts';
import type { ActivityRecord } from '../../events/activity-events.ts';
import { releaseOwnDevices } from '../devices/index.ts';
import { blockedEventOf } from './blocked-event.ts';
import { appDisabled, clientMessages, refusal, standingRefusal } from './client-outcomes.ts';
import type { LoginContext } from './complete-login.ts';
import { findUserAndAdmit } from './log-in-end-user.ts';
import type { LoginThrottles } from './login-throttles.ts';

/**
 * POST /api/v1/devices/reset: the end user releases one of their devices, or all,
 * proving who they are with their password, so "my new PC cannot log in" costs the vendor no
 * support ticket. Checked like a login, in the same order and with the same throttles (a
 * wrong password counts as a failed login), then the application's rule: self-service resets
 * on, at most one per `resetCooldownHours`. The cooldown is claimed in the statement that
 * checks it, so two resets racing release once; a named device the user does not have spends
 * nothing. The sessions of the released devices end at once.
 */
export async function resetOwnDevices({
  ctx,
  input,
}: {
  ctx: LoginContext & { loginThrottles: LoginThrottles };
  input: ClientDeviceResetInput;
}): Promise<ClientDeviceResetResponse> {
  const { application, activity } = ctx;
  if (!application.isActive) return appDisabled();
  const now = ctx.clock.now();
  const attempt = {
    applicationId: application.id,
    username: input.username,
    ipAddress: ctx.ipAddress,
  };
  const { user, blockedBy, hasFailuresToClear } = await findUserAndAdmit(ctx, attempt, {
    ownerAccountId: application.ownerAccountId,
    applicationId: application.id,
    ipAddress: ctx.ipAddress,
    username: input.username,
    hwid: input.hwid,
  });
  const lastLoginIp = user?.lastLoginIp ?? null;

  const record = (fields: Pick<ActivityRecord, 'event' | 'errorMessage' | 'metadata'>) =>
    activity.recordActivity({
      applicationId: application.id,
      appUserId: user?.id ?? null,
      username: input.username,
      success: false,
      ipAddress: ctx.ipAddress,
      createdAt: now,
      ...fields,
    });
  if (blockedBy) {
    await record({
      event: blockedEventOf[blockedBy],
      errorMessage: clientMessages.blacklisted,
      metadata: { action: 'device_reset', blockedBy, code: 'BLACKLISTED' },
    });
    return refusal('BLACKLISTED', clientMessages.blacklisted);
  }
  const isPasswordCorrect = await verifyPassword(user?.passwordHash ?? null, input.password);
  if (!user || !isPasswordCorrect) {
    await ctx.loginThrottles.recordFailure(attempt, lastLoginIp);
    if (user) activity.countFailedLogin(user.id);
    await record({
      event: 'login_failed',
      errorMessage: application.loginFailedMessage,
      metadata: { action: 'device_reset', code: 'INVALID_CREDENTIALS' },
    });
    return refusal('INVALID_CREDENTIALS', application.loginFailedMessage);
  }
  if (hasFailuresToClear) await ctx.loginThrottles.recordSuccess(attempt);
  // A paused, expired or blacklisted account cannot move itself to another machine; one
  // without a subscription can (it keeps no seat it could use anyway).
  const standing = standingRefusal(application, { ...user, licensedUntilMs: Infinity }, now);
  if (standing) return standing;
  const outcome = await releaseOwnDevices(ctx.db, {
    application,
    user,
    which: input.hwid === null ? 'all' : { hwid: input.hwid },
    ipAddress: ctx.ipAddress,
    now,
  });
  switch (outcome.kind) {
    case 'not-allowed':
      return {
        ...refusal('RESET_NOT_ALLOWED', clientMessages.resetNotAllowed),
        next_reset_at: null,
      };
    case 'cooldown':
      return {
        ...refusal('RESET_COOLDOWN', clientMessages.resetCooldown),
        next_reset_at: outcome.nextResetAt?.toISOString() ?? null,
      };
    case 'no-such-device':
      return refusal('DEVICE_NOT_FOUND', clientMessages.deviceNotFound);
  }
  const { released } = outcome;
  released.records.forEach((written, index) =>
    activity.noteWritten(
      written,
      index === released.records.length - 1 ? released.queuedDeliveries : 0,
    ),
  );
  if (released.endedSessions.length > 0) {
    ctx.sessions.announceEnded(released.endedSessions, ctx.log);
  }
  return {
    success: true,
    message: clientMessages.devicesReleased,
    code: 'OK',
    released: released.released.length,
    next_reset_at: outcome.nextResetAt?.toISOString() ?? null,
  };
}
