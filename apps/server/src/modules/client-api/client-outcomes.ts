import {
  END_USER_MAIL_UNAVAILABLE,
  VERIFICATION_RESEND_ANSWER,
  type ClientApiCode,
} from '@latchkey/contracts';
import type { ClientApplication } from './client-app-cache.ts';

/** A business outcome: always HTTP 200; `success` is true exactly when `code` is OK. */
export interface ClientOutcome {
  success: boolean;
  message: string;
  code: ClientApiCode;
}

/**
 * Fixed texts for the outcomes that have no per-application message. The client samples
 * sort messages by words: a block says "blocked"; the other texts avoid
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
  // No "disabled", "expired", "version", "HWID" or "blocked": the samples sort by words.
  noActiveSubscription: 'No active subscription: redeem a licence key to continue',
  licenseRequired: 'A licence key is required to register',
  licenseInvalid: 'This licence key is not valid',
  licenseUsed: 'This licence key has already been used',
  licenseBanned: 'This licence key has been banned',
  licenseExpired: 'This licence key can no longer be redeemed (its redeem-by date has passed)',
  licenseRedeemed: 'Licence key redeemed',
  entitlementsMissing: 'Your subscription does not include this feature',
  // The same rule: none of the words the samples sort by.
  devicesReleased: 'Device released: you can now log in from another machine',
  resetNotAllowed: 'This application does not let you release devices yourself: contact the vendor',
  resetCooldown: 'You released a device recently: you can release another one later',
  deviceNotFound: 'No device with this hardware id is bound to your account',
  // The same rule: none of the words the samples sort by.
  licenseCheckedOut: 'Offline licence issued',
  licenseNeedsHwid:
    'This licence must be bound to your machine: log in again sending its hardware id, then start a new session',
  sessionNotProven:
    'This session start does not follow the last login: start with the session_token login returned, or from the same network and device as that login',
  // The same rule: none of the words the samples sort by.
  updatesExpired:
    'This release came out after your updates period ended: use the release your licence includes, or renew it',
  // The same rule: none of the words the samples sort by.
  // The same rule: none of the words the samples sort by.
  borrowNotAllowed:
    'Your plan does not let this computer borrow its seat for that long (or at all)',
  sessionHoldsNoSeat: 'This session holds no seat to borrow: log in again',
  seatBorrowed: 'Seat borrowed: this computer may work offline until the licence ends',
  noBorrowedSeat: 'This session has no borrowed seat to give back',
  seatReturned: 'Seat given back: another computer may use it now',
  noSeatAvailable:
    'Every seat of your plan is in use on other computers: one frees up when one of them signs out',
  trialUnavailable: 'This application offers no trial',
  trialEnded: 'Your trial has ended: buy a licence to keep using the program',
  trialUsed: 'This machine has already had a trial',
  meterCounted: 'Usage counted',
  meterNotFound: 'Your plan has no meter with this name',
  meterExhausted:
    'You have used all your plan allows of this for now: wait until it refills, or upgrade',
  variableRead: 'Variable found',
  variableNotFound: 'No variable with this name',
  variableSaved: 'Variable saved',
  variableReadOnly: 'This variable is read-only: only the vendor can change it',
  variableLimitReached: 'You hold the most variables allowed: remove one before adding another',
  // The same rule: none of the words the samples sort by.
  mailUnavailable: END_USER_MAIL_UNAVAILABLE,
  emailNotVerified:
    'Please confirm your e-mail address first: open the link we mailed you, or ask for a new one',
  registeredConfirmEmail:
    'Registration successful: open the link we mailed you to confirm your address, then log in',
  verificationResent: VERIFICATION_RESEND_ANSWER,
} as const;

export const refusal = (code: ClientApiCode, message: string): ClientOutcome => ({
  success: false,
  message,
  code,
});

export const appDisabled = () => refusal('APP_DISABLED', clientMessages.appDisabled);

/**
 * What a user's standing needs from their subscriptions: until when the latest one runs, in
 * epoch milliseconds (Infinity for a lifetime one), or null when they hold none.
 */
export interface Licensing {
  licensedUntilMs: number | null;
}

/**
 * The account-standing refusal shared by login, verify, session start and heartbeat: paused or
 * inactive first, then expiry, then an unconfirmed address where the application requires
 * one, then, where the application requires a licence, an active subscription. Null when in
 * good standing.
 */
export function standingRefusal(
  application: Pick<
    ClientApplication,
    | 'accountDisabledMessage'
    | 'accountExpiredMessage'
    | 'isLicenseRequired'
    | 'requireVerifiedEmail'
  >,
  user: {
    isActive: boolean;
    isPaused: boolean;
    expiresAt: Date | null;
    isEmailVerified: boolean;
  } & Licensing,
  now: Date,
): ClientOutcome | null {
  if (!user.isActive || user.isPaused) {
    return refusal('ACCOUNT_DISABLED', application.accountDisabledMessage);
  }
  if (user.expiresAt !== null && user.expiresAt.getTime() <= now.getTime()) {
    return refusal('ACCOUNT_EXPIRED', application.accountExpiredMessage);
  }
  if (application.requireVerifiedEmail && !user.isEmailVerified) {
    return refusal('EMAIL_NOT_VERIFIED', clientMessages.emailNotVerified);
  }
  if (
    application.isLicenseRequired &&
    (user.licensedUntilMs === null || user.licensedUntilMs <= now.getTime())
  ) {
    return refusal('NO_ACTIVE_SUBSCRIPTION', clientMessages.noActiveSubscription);
  }
  return null;
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
