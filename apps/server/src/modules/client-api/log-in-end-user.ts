import type {
  ActivityEvent,
  ClientApiCode,
  ClientAuthResponse,
  ClientLoginInput,
} from '@latchkey/contracts';
import { verifyPassword } from '../../lib/password-hashing.ts';
import type { BlacklistProbe } from '../blacklist/index.ts';
import { blockedEventOf } from './blocked-event.ts';
import { appDisabled, clientMessages, refusal } from './client-outcomes.ts';
import { completeLogin, type LoginContext } from './complete-login.ts';
import type { LoginStatements } from './login-statements.ts';
import type { LoginThrottles } from './login-throttles.ts';
import { upgradePasswordHash } from './upgrade-password-hash.ts';

type AdmittedLookup = Awaited<ReturnType<LoginStatements['findUserAndBlock']>> & {
  /** The attempt had failures on record: a success should clear them. */
  hasFailuresToClear: boolean;
};

/**
 * Login's prologue, shared by every call that proves an end user by password (login, device
 * reset): the failed-login throttles, the user and the blacklist match, then the per-user
 * throttle, which needs the user's last login IP. With the database store one statement reads
 * the counters, the user and the blacklist; with Redis the counters come first. Either way a
 * throttled guess is refused before it costs a hash or a log row.
 */
export async function findUserAndAdmit(
  ctx: { loginThrottles: LoginThrottles; statements: LoginStatements },
  attempt: { applicationId: number; username: string; ipAddress: string },
  lookup: Omit<BlacklistProbe, 'email'>,
): Promise<AdmittedLookup> {
  const throttleKeys = ctx.loginThrottles.storeKeysOf(attempt);
  let hasFailuresToClear: boolean;
  let found: Awaited<ReturnType<LoginStatements['findUserAndBlock']>>;
  if (throttleKeys) {
    found = await ctx.statements.findUserAndBlock(lookup, throttleKeys);
    ({ hasFailuresToClear } = await ctx.loginThrottles.admitBeforeLookup(attempt, found.throttles));
  } else {
    ({ hasFailuresToClear } = await ctx.loginThrottles.admitBeforeLookup(attempt));
    found = await ctx.statements.findUserAndBlock(lookup, null);
  }
  await ctx.loginThrottles.admitForUser(attempt, found.user?.lastLoginIp ?? null, found.throttles);
  return { ...found, hasFailuresToClear };
}

/**
 * POST /api/v1/login. Checks, in this order: the failed-login throttles (login-throttles.ts),
 * blacklist (IP, username, the user's e-mail, HWID), credentials, paused or inactive, expiry,
 * version, HWID. Every refusal of an existing
 * user adds 1 to loginAttempts; a success sets lastLogin, resets loginAttempts to 0, binds the
 * HWID on first login under HWID lock, and issues a session token; the same statement keeps
 * the login's IP, HWID and the token's hash for the session start to match.
 *
 * An unknown username and a wrong password are the same answer in the same time: the
 * password check runs (on a dummy hash) either way, and the loginAttempts write happens off
 * the response path for both alike (only the existing user's row is changed).
 */
export async function logInEndUser({
  ctx,
  input,
}: {
  ctx: LoginContext & { loginThrottles: LoginThrottles };
  input: ClientLoginInput;
}): Promise<ClientAuthResponse> {
  const { application, activity } = ctx;
  if (!application.isActive) return appDisabled();

  // Brute force: refused before the user is even looked up where no user is needed, so a
  // throttled guess costs neither a hash nor a log row.
  const attempt = {
    applicationId: application.id,
    username: input.username,
    ipAddress: ctx.ipAddress,
  };
  const lookup = {
    ownerAccountId: application.ownerAccountId,
    applicationId: application.id,
    ipAddress: ctx.ipAddress,
    username: input.username,
    hwid: input.hwid,
  };
  const { user, blockedBy, hasFailuresToClear } = await findUserAndAdmit(ctx, attempt, lookup);
  const now = ctx.clock.now();
  const lastLoginIp = user?.lastLoginIp ?? null;

  // The version always (a missing one explains a version_mismatch); the hwid only if sent.
  const metadata = { ...(input.hwid ? { hwid: input.hwid } : {}), version: input.version };
  // Every answer that records an event waits for its commit: acknowledged means written.
  const refuse = async (
    code: ClientApiCode,
    event: ActivityEvent,
    message: string,
    extraMetadata: Record<string, unknown> = {},
  ): Promise<ClientAuthResponse> => {
    if (user) activity.countFailedLogin(user.id);
    await activity.recordActivity({
      applicationId: application.id,
      appUserId: user?.id ?? null,
      username: input.username,
      event,
      success: false,
      ipAddress: ctx.ipAddress,
      errorMessage: message,
      metadata: { ...metadata, ...extraMetadata, code },
      createdAt: now,
    });
    return refusal(code, message);
  };

  if (blockedBy) {
    return refuse('BLACKLISTED', blockedEventOf[blockedBy], clientMessages.blacklisted, {
      blockedBy,
    });
  }

  const isPasswordCorrect = await verifyPassword(user?.passwordHash ?? null, input.password);
  if (!user || !isPasswordCorrect) {
    await ctx.loginThrottles.recordFailure(attempt, lastLoginIp);
    return refuse('INVALID_CREDENTIALS', 'login_failed', application.loginFailedMessage);
  }

  const answer = await completeLogin(ctx, {
    user,
    version: input.version,
    hwid: input.hwid,
    deviceName: input.device_name,
    metadata,
    now,
    refuse,
    onNotWritten: () =>
      refuse('INVALID_CREDENTIALS', 'login_failed', application.loginFailedMessage),
  });
  if (answer.success && hasFailuresToClear) await ctx.loginThrottles.recordSuccess(attempt);
  if (answer.success) await upgradePasswordHash(ctx.db, user, input.password);
  return answer;
}
