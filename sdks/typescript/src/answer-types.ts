/**
 * What the client API answers, field for field as the server writes it (snake_case, as on the
 * wire). The server's contracts are the source of these shapes; the conformance tests hold
 * these types and the list below to them, so the package needs no runtime dependency.
 */

/** The closed list of codes an answer carries. `success` is true exactly when it is `OK`. */
export const resultCodes = [
  'OK',
  'INVALID_CREDENTIALS',
  'ACCOUNT_DISABLED',
  'ACCOUNT_EXPIRED',
  'VERSION_MISMATCH',
  'HWID_MISMATCH',
  'BLACKLISTED',
  'USERNAME_TAKEN',
  'APP_DISABLED',
  'USER_NOT_FOUND',
  'SESSION_INVALID',
  'LICENSE_REQUIRED',
  'LICENSE_INVALID',
  'LICENSE_USED',
  'LICENSE_BANNED',
  'LICENSE_EXPIRED',
  'NO_ACTIVE_SUBSCRIPTION',
  'ENTITLEMENTS_MISSING',
  'RESET_NOT_ALLOWED',
  'RESET_COOLDOWN',
  'DEVICE_NOT_FOUND',
  'HWID_REQUIRED',
  'VARIABLE_NOT_FOUND',
  'VARIABLE_READ_ONLY',
  'VARIABLE_LIMIT_REACHED',
  'FILE_NOT_FOUND',
  'METER_NOT_FOUND',
  'METER_EXHAUSTED',
  'UPDATES_EXPIRED',
  'NO_SEAT_AVAILABLE',
  'BORROW_NOT_ALLOWED',
  'TRIAL_UNAVAILABLE',
  'TRIAL_EXPIRED',
  'TRIAL_USED',
  'MAIL_UNAVAILABLE',
  'EMAIL_NOT_VERIFIED',
  'INVALID_REQUEST',
  'INVALID_API_KEY',
  'RATE_LIMITED',
] as const;

export type ResultCode = (typeof resultCodes)[number];

interface AnswerBase {
  success: boolean;
  message: string;
  code: ResultCode;
}

/** An active subscription: its plan's name and its expiry (null: lifetime). */
export interface Subscription {
  plan: string;
  expires_at: string | null;
}

/**
 * Where one usage meter of the user stands in its current period: a plan's allowance of
 * something (exports, API credits) per day, week, month, year or for good.
 */
export interface Meter {
  name: string;
  /** Units allowed each period. */
  allowance: number;
  used: number;
  /** `allowance - used`, never below 0. */
  remaining: number;
  /** Units used beyond the allowance (a meter that counts overage); 0 otherwise. */
  overage: number;
  /** When the period ends and `used` starts again at 0; null: a meter that never resets. */
  resets_at: string | null;
}

/**
 * The release a login refused with `VERSION_MISMATCH` or `UPDATES_EXPIRED` offers: the one this
 * user should run, the current release or, past their updates window, the newest published
 * within it.
 */
export interface UpdateOffer {
  version: string;
  file_id: string;
  size: number;
  sha256: string;
}

/** register, login, licenseLogin, startTrial and redeem. */
export interface AuthAnswer extends AnswerBase {
  user_id?: string;
  username?: string;
  email?: string | null;
  expires_at?: string | null;
  hwid_locked?: boolean;
  session_token?: string;
  /**
   * `NO_SEAT_AVAILABLE` only: when the first of the seats leased to the user's other computers
   * lapses (a seat may be freed sooner, when one of them ends its session).
   */
  next_free_at?: string;
  entitlements?: string[];
  subscriptions?: Subscription[];
  /**
   * The end of the user's updates window: releases published later are refused with
   * `UPDATES_EXPIRED`. Null: no window (every release).
   */
  updates_until?: string | null;
  /**
   * The usage meters of the user's active subscriptions, by name. The client adds an empty
   * list where the server sends none beside the user's entitlements (no plan with meters).
   */
  meters?: Meter[];
  update?: UpdateOffer;
}

export interface VerifyAnswer extends AnswerBase {
  entitlements?: string[];
  subscriptions?: Subscription[];
  /** As `AuthAnswer.updates_until`. */
  updates_until?: string | null;
  /** As `AuthAnswer.meters`. */
  meters?: Meter[];
  missing_entitlements?: string[];
}

/** Session start, heartbeat and end. */
export interface SessionAnswer extends AnswerBase {
  session_token?: string;
}

/** getVariable, getUserVariable and setUserVariable. */
export interface VariableAnswer extends AnswerBase {
  name?: string;
  value?: string;
  read_only?: boolean;
}

export interface DeviceResetAnswer extends AnswerBase {
  released?: number;
  next_reset_at?: string | null;
}

/** checkout and borrowSeat: an offline licence and until when it holds. */
export interface CheckoutAnswer extends AnswerBase {
  license?: string;
  valid_until?: string;
}

/** returnSeat: whether the borrowed seat was given back. */
export type SeatReturnAnswer = AnswerBase;

/**
 * useMeter's answer: where the meter stands after the increment, or, refused with
 * `METER_EXHAUSTED`, where it stands without it (`METER_NOT_FOUND` and the session's refusals
 * carry none of it).
 */
export interface MeterAnswer extends AnswerBase {
  name?: string;
  allowance?: number;
  used?: number;
  remaining?: number;
  overage?: number;
  resets_at?: string | null;
  /** True when this idempotency key was counted before: the answer is the first one's. */
  replayed?: boolean;
}

/** The signed answer that names a file's download URL, size and SHA-256. */
export interface FileAnswer extends AnswerBase {
  url?: string;
  size?: number;
  sha256?: string;
  expires_at?: string;
}

/**
 * What password/forgot and email/verify/resend answer: the same for every account, known or
 * not, so it tells nothing about who has one.
 */
export type MailAnswer = AnswerBase;

/**
 * A call's outcome: the answer's own fields, plus `retryAfterSeconds` when the server said
 * when to try again (a `RATE_LIMITED` answer's `Retry-After`).
 */
export type Result<Answer extends AnswerBase> = Answer & { retryAfterSeconds?: number };

/**
 * What login, licenseLogin and startTrial answer: the login's fields, or, when a required
 * entitlement is missing, the verify's refusal over them.
 */
export type LoginResult = Result<AuthAnswer> & { missing_entitlements?: string[] };

/** A download's outcome: on success, where the checked file now is. */
export type DownloadResult = Result<FileAnswer> & { path?: string };
