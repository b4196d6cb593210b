import type { ClientAuthResponse } from '@latchkey/contracts';
import { verifyPassword } from '../../lib/password-hashing.ts';
import type { ActivityRecord } from '../../events/activity-events.ts';
import { changeMadeWithin } from '../../events/application-events.ts';
import type { ClientRedemption } from '../licenses/index.ts';
import { licensingAnswer } from '../subscriptions/index.ts';
import { blockedEventOf } from './blocked-event.ts';
import { appDisabled, clientMessages, refusal, standingRefusal } from './client-outcomes.ts';
import type { LicenseClientContext } from './license-client-context.ts';
import { licenseRedeemedRecord, refuseLicense } from './license-refusals.ts';
import type { LoginStatements } from './login-statements.ts';
import type { LoginThrottles } from './login-throttles.ts';

/**
 * POST /api/v1/license/redeem: the holder of an account adds a key to it (KeyAuth's
 * `upgrade`, but with the password, so a leaked username cannot be topped up by a stranger's
 * key or probed for). Wrong credentials count against the login throttles and refused keys
 * against the licence throttles. A paused, inactive or expired account cannot redeem; one
 * without a subscription can (that is how it gets one).
 */
export async function redeemLicense({
  ctx,
  input,
}: {
  ctx: LicenseClientContext & {
    loginThrottles: LoginThrottles;
    statements: LoginStatements;
    redeemForClient: ClientRedemption;
  };
  /**
   * `password: null` is KeyAuth's `upgrade` (the compatible API's), which sends no password:
   * there the attempt counts as a key attempt against the licence throttles instead, whatever
   * its outcome, so it cannot be used to probe usernames or spend keys faster than guessing.
   */
  input: { username: string; password: string | null; license_key: string };
}): Promise<ClientAuthResponse> {
  const { application, activity } = ctx;
  if (!application.isActive) return appDisabled();
  const now = ctx.clock.now();
  const loginAttempt = {
    applicationId: application.id,
    username: input.username,
    ipAddress: ctx.ipAddress,
  };
  // Login's own prepared statement finds the user, the blacklist match and (with the
  // database store) the login and licence throttle counters in one round trip; all are
  // decided before the hash.
  const licenseAttempt = {
    applicationId: application.id,
    ipAddress: ctx.ipAddress,
    licenseKey: input.license_key,
  };
  const throttleKeys = ctx.loginThrottles.storeKeysOf(loginAttempt);
  const licenseKeys = ctx.licenseThrottles.storeKeysOf(licenseAttempt);
  const lookup = {
    ownerAccountId: application.ownerAccountId,
    applicationId: application.id,
    ipAddress: ctx.ipAddress,
    username: input.username,
    hwid: null,
  };
  let found: Awaited<ReturnType<LoginStatements['findUserAndBlock']>>;
  if (throttleKeys && licenseKeys) {
    found = await ctx.statements.findUserAndBlock(lookup, throttleKeys, licenseKeys);
    await ctx.loginThrottles.admitBeforeLookup(loginAttempt, found.throttles);
    await ctx.licenseThrottles.admit(licenseAttempt, found.otherThrottles);
  } else {
    await ctx.loginThrottles.admitBeforeLookup(loginAttempt);
    await ctx.licenseThrottles.admit(licenseAttempt);
    found = await ctx.statements.findUserAndBlock(lookup, null);
  }
  const { user, blockedBy } = found;
  await ctx.loginThrottles.admitForUser(loginAttempt, user?.lastLoginIp ?? null, found.throttles);

  const record = (
    fields: Pick<ActivityRecord, 'event' | 'success' | 'errorMessage' | 'metadata'>,
  ) =>
    activity.recordActivity({
      applicationId: application.id,
      appUserId: user?.id ?? null,
      username: input.username,
      ipAddress: ctx.ipAddress,
      createdAt: now,
      ...fields,
    });
  if (blockedBy) {
    await record({
      event: blockedEventOf[blockedBy],
      success: false,
      errorMessage: clientMessages.blacklisted,
      metadata: { action: 'redeem', blockedBy, code: 'BLACKLISTED' },
    });
    return refusal('BLACKLISTED', clientMessages.blacklisted);
  }
  if (input.password === null) {
    await ctx.licenseThrottles.recordFailure(licenseAttempt);
    if (!user) {
      await record({
        event: 'license_failed',
        success: false,
        errorMessage: clientMessages.userNotFound,
        metadata: { action: 'upgrade', code: 'USER_NOT_FOUND' },
      });
      return refusal('USER_NOT_FOUND', clientMessages.userNotFound);
    }
  }
  const isPasswordCorrect =
    input.password === null || (await verifyPassword(user?.passwordHash ?? null, input.password));
  if (!user || !isPasswordCorrect) {
    await ctx.loginThrottles.recordFailure(loginAttempt, user?.lastLoginIp ?? null);
    await record({
      event: 'login_failed',
      success: false,
      errorMessage: application.loginFailedMessage,
      metadata: { action: 'redeem', code: 'INVALID_CREDENTIALS' },
    });
    return refusal('INVALID_CREDENTIALS', application.loginFailedMessage);
  }
  // Standing without the licence rule: redeeming is how a user without a subscription gets one.
  const standing = standingRefusal(application, { ...user, licensedUntilMs: Infinity }, now);
  if (standing) return standing;

  // One prepared statement claims the key, stacks the subscription, writes the event with its
  // webhook deliveries, answers the subscriptions and announces the user's change to the other
  // instances (verify's and the sessions' caches hold the user's subscriptions): atomic
  // without a transaction, and the announcement needs no commit of its own.
  const eventOf = (licenseId: string, planName: string) =>
    licenseRedeemedRecord(ctx, {
      appUserId: user.id,
      username: user.username,
      licenseId,
      planName,
      action: 'redeem',
      now,
    });
  const change = changeMadeWithin(
    ctx.applicationEvents,
    { kind: 'end-user-changed', applicationId: application.id, userId: user.id },
    ctx.log,
  );
  const redeemed = await ctx
    .redeemForClient({
      applicationId: application.id,
      appUserId: user.id,
      key: input.license_key,
      now,
      serverSecret: ctx.serverSecret,
      event: eventOf('', ''),
      announcement: change.announcement,
    })
    .catch((error: unknown) => {
      change.notMade();
      throw error;
    });
  const { redemption, held, otherListeners } = redeemed;
  if (!redemption.isRedeemed) {
    change.notMade();
    return refuseLicense(ctx, {
      licenseKey: input.license_key,
      code: redemption.code,
      licenseId: redemption.licenseId,
      username: user.username,
      appUserId: user.id,
      action: 'redeem',
      now,
    });
  }
  activity.noteWritten(
    eventOf(redemption.licenseId, redemption.planName),
    redemption.queuedDeliveries,
  );
  // The answer waits, as an owner's change does, until the other instances have
  // acknowledged dropping what they cached of the user.
  await change.made(otherListeners);
  return {
    success: true,
    message: clientMessages.licenseRedeemed,
    code: 'OK',
    user_id: user.id,
    username: user.username,
    email: user.email,
    expires_at: user.expiresAt?.toISOString() ?? null,
    hwid_locked: application.hwidLockEnabled && user.hwid !== null,
    ...licensingAnswer(held, now),
  };
}
