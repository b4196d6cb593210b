import type { ActivityEvent, ClientApiCode, ClientAuthResponse } from '@latchkey/contracts';
import { hashToken } from '../../lib/tokens.ts';
import type { ActivityRecord } from '../activity/activity-events.ts';
import {
  licensedUntilMs,
  licensingAnswer,
  type HeldSubscription,
} from '../subscriptions/held-subscriptions.ts';
import type { ClientContext } from './client-context.ts';
import { standingRefusal, type ClientOutcome } from './client-outcomes.ts';
import type { LoginStatements } from './log-in-end-user.ts';
import { issueSessionToken } from './session-token.ts';

/** The user a login has identified (by password or by licence key), as its last checks need. */
export interface IdentifiedUser {
  id: string;
  username: string;
  email: string | null;
  isActive: boolean;
  isPaused: boolean;
  expiresAt: Date | null;
  hwid: string | null;
  held: HeldSubscription[];
}

/** A refused login's event and answer (acknowledged means written: it waits for the commit). */
export type RefuseLogin = (
  code: ClientApiCode,
  event: ActivityEvent,
  message: string,
) => Promise<ClientOutcome>;

/**
 * What every login does once it knows the user (login by password, login by licence key):
 * standing (paused or inactive, expiry, a subscription where one is required), version, HWID
 * (the first login binds under the lock), then one statement that stamps the login, binds,
 * and writes the `user_login` row with its deliveries, and the answer with a session token.
 * Undefined `written` means the binding lost a race (or the user went): refused.
 */
export async function completeLogin(
  ctx: ClientContext & { statements: LoginStatements },
  input: {
    user: IdentifiedUser;
    version: string | null;
    hwid: string | null;
    /** The request's own metadata for the activity rows (hwid, version, action…). */
    metadata: Record<string, unknown>;
    now: Date;
    refuse: RefuseLogin;
    /** What a lost race answers when the HWID lock is off. */
    onNotWritten: () => Promise<ClientOutcome>;
  },
): Promise<ClientAuthResponse> {
  const { application, activity } = ctx;
  const { user, hwid, now, refuse } = input;
  const standing = standingRefusal(
    application,
    { ...user, licensedUntilMs: licensedUntilMs(user.held) },
    now,
  );
  if (standing) {
    // A lapsed subscription is logged as an expiry; the metadata's code tells them apart.
    return refuse(
      standing.code,
      standing.code === 'ACCOUNT_DISABLED' ? 'account_disabled' : 'account_expired',
      standing.message,
    );
  }
  if (input.version !== application.version) {
    return refuse('VERSION_MISMATCH', 'version_mismatch', application.versionMismatchMessage);
  }
  if (application.hwidLockEnabled && (!hwid || (user.hwid !== null && user.hwid !== hwid))) {
    return refuse('HWID_MISMATCH', 'hwid_mismatch', application.hwidMismatchMessage);
  }

  const sessionToken = issueSessionToken(now);
  const successRecord = {
    applicationId: application.id,
    appUserId: user.id,
    username: user.username,
    event: 'user_login',
    success: true,
    ipAddress: ctx.ipAddress,
    errorMessage: null,
    metadata: {
      ...input.metadata,
      code: 'OK',
      ...(application.hwidLockEnabled && user.hwid === null ? { hwidBound: true } : {}),
    },
    createdAt: now,
  } satisfies ActivityRecord;
  const written = await ctx.statements.stampAndRecordLogin({
    userId: user.id,
    now,
    ipAddress: ctx.ipAddress,
    loginHwid: hwid,
    tokenHash: hashToken(sessionToken),
    applicationId: application.id,
    metadata: successRecord.metadata,
    bindHwid: application.hwidLockEnabled && hwid ? hwid : null,
  });
  if (!written) {
    return application.hwidLockEnabled
      ? refuse('HWID_MISMATCH', 'hwid_mismatch', application.hwidMismatchMessage)
      : input.onNotWritten();
  }
  activity.noteWritten(successRecord, written.queuedDeliveries);
  activity.resetLoginAttempts(user.id);
  return {
    success: true,
    message: application.loginSuccessMessage,
    code: 'OK',
    user_id: user.id,
    username: user.username,
    email: user.email,
    expires_at: user.expiresAt?.toISOString() ?? null,
    hwid_locked: application.hwidLockEnabled && written.hwid !== null,
    session_token: sessionToken,
    ...licensingAnswer(user.held, now),
  };
}
