import type { ClientApiCode } from '@latchkey/contracts';
import type { ClientApplication } from './client-app-cache.ts';

/** A business outcome: always HTTP 200; `success` is true exactly when `code` is OK. */
export interface ClientOutcome {
  success: boolean;
  message: string;
  code: ClientApiCode;
}

/**
 * Fixed texts for the outcomes that have no per-application message. The client samples
 * sort messages by words (spec doc 2 §8): a block says "blocked"; the other texts avoid
 * "disabled", "expired", "version" and "HWID" so they are not mistaken for those outcomes.
 */
export const clientMessages = {
  blacklisted: 'Access blocked: this request is on the blacklist of this application.',
  appDisabled: 'This application is currently unavailable. Please try again later.',
  usernameTaken: 'Username already exists',
  registered: 'Registration successful',
  verified: 'User verified',
  userNotFound: 'User not found',
  sessionStarted: 'Session started',
  heartbeat: 'Session is active',
  sessionEnded: 'Session ended',
  sessionUnknown: 'Session not found or already ended',
  sessionTokenMalformed: 'Session token must look like sess_<32+ letters or digits>_<unix time>',
  sessionNeedsLogin: 'Log in again to start a session (a session must start within 10 minutes)',
  sessionTokenInUse: 'This session token is already in use',
  sessionNotProven:
    'This session start does not follow the last login: start with the session_token login returned, or from the same network and device as that login',
} as const;

export const refusal = (code: ClientApiCode, message: string): ClientOutcome => ({
  success: false,
  message,
  code,
});

export const appDisabled = () => refusal('APP_DISABLED', clientMessages.appDisabled);

/**
 * The account-standing refusal shared by login, verify and session start: paused or
 * inactive first, then expiry (the precedence of spec doc 1 §4). Null when in good standing.
 */
export function standingRefusal(
  application: ClientApplication,
  user: { isActive: boolean; isPaused: boolean; expiresAt: Date | null },
  now: Date,
): ClientOutcome | null {
  if (!user.isActive || user.isPaused) {
    return refusal('ACCOUNT_DISABLED', application.accountDisabledMessage);
  }
  if (user.expiresAt !== null && user.expiresAt.getTime() <= now.getTime()) {
    return refusal('ACCOUNT_EXPIRED', application.accountExpiredMessage);
  }
  return null;
}

/** What standingRefusal checks, without the message: the owner side ends sessions by it. */
export function isInGoodStanding(
  user: { isActive: boolean; isPaused: boolean; expiresAt: Date | null },
  now: Date,
): boolean {
  return (
    user.isActive &&
    !user.isPaused &&
    (user.expiresAt === null || user.expiresAt.getTime() > now.getTime())
  );
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
