import { and, eq, isNull, or, sql } from 'drizzle-orm';
import type {
  ActivityEvent,
  BlacklistType,
  ClientApiCode,
  ClientAuthResponse,
  ClientLoginInput,
} from '@latchkey/contracts';
import type { Database } from '../../db/client.ts';
import { appUsers, blacklistEntries } from '../../db/schema/index.ts';
import { verifyPassword } from '../../lib/password-hashing.ts';
import { hashToken } from '../../lib/tokens.ts';
import {
  blacklistMatchCondition,
  blacklistProbeParameters,
  firstBlockedPart,
  type BlacklistProbe,
} from '../blacklist/find-blacklist-match.ts';
import { blockedEventOf } from './blocked-event.ts';
import type { ClientContext } from './client-context.ts';
import { appDisabled, clientMessages, refusal, standingRefusal } from './client-outcomes.ts';
import type { LoginThrottles } from './login-throttles.ts';
import { issueSessionToken } from './session-token.ts';

/** The user a login names, as its checks need it. */
interface LoginUser {
  id: string;
  username: string;
  email: string | null;
  passwordHash: string;
  isActive: boolean;
  isPaused: boolean;
  expiresAt: Date | null;
  hwid: string | null;
  /** Exempt from the per-username failure limit (see login-throttles.ts). */
  lastLoginIp: string | null;
}

/** Login's statements, prepared once per app: parsing and planning them per login adds up. */
export function createLoginStatements(db: Database) {
  const namedUser = db
    .select({
      id: appUsers.id,
      username: appUsers.username,
      email: appUsers.email,
      passwordHash: appUsers.passwordHash,
      isActive: appUsers.isActive,
      isPaused: appUsers.isPaused,
      expiresAt: appUsers.expiresAt,
      hwid: appUsers.hwid,
      lastLoginIp: appUsers.lastLoginIp,
    })
    .from(appUsers)
    .where(
      and(
        eq(appUsers.applicationId, sql.placeholder('applicationId')),
        eq(appUsers.username, sql.placeholder('loginUsername')),
      ),
    )
    .limit(1)
    .as('login_user');
  // The blacklist types the request matches, the user's e-mail included (null when no user).
  const matchedTypes = db
    .select({ types: sql`array_agg(distinct ${blacklistEntries.type})` })
    .from(blacklistEntries)
    .where(blacklistMatchCondition(sql`lower(${namedUser.email})`));
  // One round trip for both questions, and exactly one row whether or not the user exists
  // (an unknown username can still be blacklisted by IP, name or HWID). Under load every
  // round trip costs the database and the event loop far more than the queries themselves.
  const userAndBlacklist = db
    .select({
      id: namedUser.id,
      username: namedUser.username,
      email: namedUser.email,
      passwordHash: namedUser.passwordHash,
      isActive: namedUser.isActive,
      isPaused: namedUser.isPaused,
      expiresAt: namedUser.expiresAt,
      hwid: namedUser.hwid,
      lastLoginIp: namedUser.lastLoginIp,
      blacklistedTypes: sql<string[] | null>`(${matchedTypes})`,
    })
    .from(sql`(select 1) as one`)
    .leftJoin(namedUser, sql`true`)
    .prepare('client_api_login_user');
  // What a session start must match (track-client-session.ts), stamped with the login itself.
  const lastLoginProof = {
    lastLogin: sql`${sql.placeholder('now')}::timestamptz`,
    lastLoginIp: sql`${sql.placeholder('ipAddress')}::text`,
    lastLoginHwid: sql`${sql.placeholder('loginHwid')}::text`,
    lastLoginTokenHash: sql`${sql.placeholder('tokenHash')}::text`,
  };
  const stampLogin = db
    .update(appUsers)
    .set(lastLoginProof)
    .where(eq(appUsers.id, sql.placeholder('userId')))
    .returning({ hwid: appUsers.hwid })
    .prepare('client_api_login_stamp');
  // Binding and the login stamp in one statement: of two first logins from different
  // devices racing, only one can bind; the other finds the row bound and is refused.
  const stampLoginAndBind = db
    .update(appUsers)
    .set({ ...lastLoginProof, hwid: sql`${sql.placeholder('hwid')}::text` })
    .where(
      and(
        eq(appUsers.id, sql.placeholder('userId')),
        or(isNull(appUsers.hwid), eq(appUsers.hwid, sql.placeholder('hwid'))),
      ),
    )
    .returning({ hwid: appUsers.hwid })
    .prepare('client_api_login_stamp_bind');
  return {
    /** The user with this username (if any) and the part of the request that is blocked. */
    async findUserAndBlock(probe: Omit<BlacklistProbe, 'email'>): Promise<{
      user: LoginUser | undefined;
      blockedBy: BlacklistType | null;
    }> {
      const [row] = await userAndBlacklist.execute({
        ...blacklistProbeParameters(probe),
        loginUsername: probe.username,
      });
      return {
        user: row && row.id !== null ? foundUser(row) : undefined,
        blockedBy: firstBlockedPart(row?.blacklistedTypes ?? null),
      };
    },
    stampLogin,
    stampLoginAndBind,
  };
}

/** The left join makes every column nullable; with an id, the row is a user and they are not. */
function foundUser(row: { [K in keyof LoginUser]: LoginUser[K] | null }): LoginUser {
  return {
    id: row.id!,
    username: row.username!,
    email: row.email,
    passwordHash: row.passwordHash!,
    isActive: row.isActive!,
    isPaused: row.isPaused!,
    expiresAt: row.expiresAt,
    hwid: row.hwid,
    lastLoginIp: row.lastLoginIp,
  };
}
export type LoginStatements = ReturnType<typeof createLoginStatements>;

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
  ctx: ClientContext & { loginThrottles: LoginThrottles; statements: LoginStatements };
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
  const { hasFailuresToClear } = await ctx.loginThrottles.admitBeforeLookup(attempt);

  const now = ctx.clock.now();
  // One statement finds the user and the blacklist match (the user's e-mail included); the
  // blacklist is still the first check.
  const { user, blockedBy } = await ctx.statements.findUserAndBlock({
    ownerAccountId: application.ownerAccountId,
    applicationId: application.id,
    ipAddress: ctx.ipAddress,
    username: input.username,
    hwid: input.hwid,
  });
  // Guessing at one username from many addresses: it needs the user's last login IP, so
  // it runs now, still before the hash. An unknown username is throttled alike.
  const lastLoginIp = user?.lastLoginIp ?? null;
  await ctx.loginThrottles.admitForUser(attempt, lastLoginIp);

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

  const standing = standingRefusal(application, user, now);
  if (standing) {
    return refuse(
      standing.code,
      standing.code === 'ACCOUNT_DISABLED' ? 'account_disabled' : 'account_expired',
      standing.message,
    );
  }
  if (input.version !== application.version) {
    return refuse('VERSION_MISMATCH', 'version_mismatch', application.versionMismatchMessage);
  }
  const { hwid } = input;
  if (application.hwidLockEnabled && (!hwid || (user.hwid !== null && user.hwid !== hwid))) {
    return refuse('HWID_MISMATCH', 'hwid_mismatch', application.hwidMismatchMessage);
  }

  const sessionToken = issueSessionToken(now);
  const stamp = {
    userId: user.id,
    now,
    ipAddress: ctx.ipAddress,
    loginHwid: hwid,
    tokenHash: hashToken(sessionToken),
  };
  const [updated] =
    application.hwidLockEnabled && hwid
      ? await ctx.statements.stampLoginAndBind.execute({ ...stamp, hwid })
      : await ctx.statements.stampLogin.execute(stamp);
  if (!updated) {
    return application.hwidLockEnabled
      ? refuse('HWID_MISMATCH', 'hwid_mismatch', application.hwidMismatchMessage)
      : refuse('INVALID_CREDENTIALS', 'login_failed', application.loginFailedMessage);
  }

  if (hasFailuresToClear) await ctx.loginThrottles.recordSuccess(attempt);
  activity.resetLoginAttempts(user.id);
  await activity.recordActivity({
    applicationId: application.id,
    appUserId: user.id,
    username: user.username,
    event: 'user_login',
    success: true,
    ipAddress: ctx.ipAddress,
    errorMessage: null,
    metadata: {
      ...metadata,
      code: 'OK',
      ...(application.hwidLockEnabled && user.hwid === null ? { hwidBound: true } : {}),
    },
    createdAt: now,
  });
  return {
    success: true,
    message: application.loginSuccessMessage,
    code: 'OK',
    user_id: user.id,
    username: user.username,
    email: user.email,
    expires_at: user.expiresAt?.toISOString() ?? null,
    hwid_locked: application.hwidLockEnabled && updated.hwid !== null,
    session_token: sessionToken,
  };
}
