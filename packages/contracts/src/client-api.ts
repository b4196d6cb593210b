import { z } from 'zod';
import { appUserLimits } from './app-users.ts';
import { deviceLimits } from './devices.ts';
import { offlineLicenseLimits } from './offline-licenses.ts';
import { clientMeterSchema } from './meters.ts';
import type { ClientCallEntry } from './client-call-entry.ts';

/**
 * The public client API (/api/v1), used by vendors' desktop programs. Business outcomes are
 * HTTP 200 with `success` and a `code`; only a malformed request (400), a missing or unknown
 * API key (401) and a rate limit (429) are HTTP errors, plus 404 for an unknown path and 413
 * for an oversized body. docs/client-api.md is the guide.
 */

/** The closed list of codes every /api/v1 answer carries, with what each one means. */
export const clientApiCodeMeanings = {
  OK: 'The request succeeded.',
  INVALID_CREDENTIALS: 'Unknown username or wrong password (the two are indistinguishable).',
  ACCOUNT_DISABLED: 'The end user is paused or inactive.',
  ACCOUNT_EXPIRED: "The end user's expiry date has passed.",
  VERSION_MISMATCH: "The client's version is not the application's current version.",
  HWID_MISMATCH: 'HWID lock is on and the hardware id is missing or not the bound one.',
  BLACKLISTED: 'The IP address, username, e-mail or HWID is on the blacklist.',
  USERNAME_TAKEN: 'Registration refused: the username already exists in this application.',
  APP_DISABLED: 'The application is inactive: every endpoint refuses until it is re-enabled.',
  USER_NOT_FOUND: 'No user with this id in this application.',
  SESSION_INVALID: 'The session cannot be started, or is unknown, ended or of another app.',
  LICENSE_REQUIRED: 'The application requires a licence key to register, and none was sent.',
  LICENSE_INVALID:
    'The licence key is unknown or malformed (another application\u2019s key alike).',
  LICENSE_USED: 'The licence key has already been redeemed.',
  LICENSE_BANNED: 'The licence key has been banned by the vendor.',
  LICENSE_EXPIRED: 'The licence key was not redeemed before its redeem-by date.',
  NO_ACTIVE_SUBSCRIPTION:
    'The application requires a licence and the user holds no active subscription.',
  ENTITLEMENTS_MISSING:
    'Verify asked for entitlements the user does not hold; missing_entitlements names them.',
  RESET_NOT_ALLOWED: 'devices/reset: the application does not let end users release devices.',
  RESET_COOLDOWN:
    'devices/reset: the user released a device within the cooldown; next_reset_at says when.',
  DEVICE_NOT_FOUND: 'devices/reset: no device with this hwid is bound to the user.',
  HWID_REQUIRED:
    'license/checkout: the licence must be bound to a HWID (encrypt, or HWID lock) and the session has none.',
  VARIABLE_NOT_FOUND:
    'var, user-var: no variable with this name (of this application, or of this user).',
  VARIABLE_READ_ONLY: 'user-var/set: the vendor made this variable of the user read-only.',
  VARIABLE_LIMIT_REACHED: 'user-var/set: the user already holds the most variables allowed (100).',
  FILE_NOT_FOUND: 'file: no complete file with this id in this application.',
  METER_NOT_FOUND:
    "meters/{name}/use: none of the user's active subscriptions has a meter of this name.",
  METER_EXHAUSTED:
    'meters/{name}/use: the amount would take the meter past its allowance for this period (a refusing meter); used, remaining and resets_at say where it stands.',
  UPDATES_EXPIRED:
    "The release was published after the user's updates window ended (updates_until); the releases published within it keep working.",
  NO_SEAT_AVAILABLE:
    "Every seat of the user's floating plan is leased (to other computers); next_free_at says when the first lease lapses.",
  BORROW_NOT_ALLOWED:
    "session/borrow: the session's user holds no floating plan that lets a seat be borrowed, or asks for more days than it allows.",
  TRIAL_UNAVAILABLE: 'trial: the application offers no trial.',
  TRIAL_EXPIRED:
    "trial: this machine's trial has ended (a new account or a reinstall does not start another); expires_at says when.",
  TRIAL_USED:
    'trial: this machine has had a trial whose account is gone (deleted by the vendor); it gets no other.',
  MAIL_UNAVAILABLE:
    'password/forgot, email/verify/resend: this server sends no mail (no SMTP server is configured), so no link can be sent.',
  EMAIL_NOT_VERIFIED:
    'The application requires a verified e-mail address and the user has not followed the link mailed to them yet.',
  INVALID_REQUEST: 'HTTP 400 (also 404, 413): malformed JSON, wrong types, oversized values.',
  INVALID_API_KEY: 'HTTP 401: the X-API-Key header (or login body api_key) is missing or unknown.',
  RATE_LIMITED: 'HTTP 429: too many requests or failed logins; see the Retry-After header.',
} as const;

export const clientApiCodes = Object.keys(clientApiCodeMeanings) as [
  keyof typeof clientApiCodeMeanings,
  ...(keyof typeof clientApiCodeMeanings)[],
];
export const clientApiCodeSchema = z.enum(clientApiCodes);
export type ClientApiCode = z.infer<typeof clientApiCodeSchema>;

/**
 * A 5xx is a server fault, not an answer of the contract: its body still has the v1 shape,
 * with this code outside the closed list. Clients treat it like a network error.
 */
export const CLIENT_API_SERVER_ERROR_CODE = 'INTERNAL_ERROR';

/** Response headers that carry the Ed25519 signature, and the request header it binds. */
export const clientApiHeaders = {
  apiKey: 'x-api-key',
  signature: 'x-signature-ed25519',
  signatureTimestamp: 'x-signature-timestamp',
  nonce: 'x-request-nonce',
} as const;

/**
 * The signature every /api/v1 answer carries (docs/client-api.md): Ed25519 over
 * `{timestamp}.{nonce}.{body}`, with the application's key, or the server-wide key when the
 * API key named no application.
 */
export const clientSignatureHeadersSchema = z.object({
  [clientApiHeaders.signature]: z
    .string()
    .regex(/^[0-9a-f]{128}$/)
    .meta({
      description:
        'Ed25519 signature (hex) of `{X-Signature-Timestamp}.{X-Request-Nonce or empty}.{body bytes}`.',
    }),
  [clientApiHeaders.signatureTimestamp]: z.string().regex(/^\d+$/).meta({
    description: 'Unix seconds when the answer was signed; refuse answers far from your clock.',
  }),
});

/** A 429 also says when to try again. */
export const clientRetryAfterHeadersSchema = clientSignatureHeadersSchema.extend({
  'retry-after': z
    .string()
    .regex(/^\d+$/)
    .meta({ description: 'Seconds to wait before retrying.' }),
});

/** Longest accepted X-Request-Nonce; it must be visible ASCII (0x21-0x7e). */
export const CLIENT_NONCE_MAX_LENGTH = 128;
export const CLIENT_NONCE_PATTERN = /^[\x21-\x7e]*$/;

/** Request headers of every /api/v1 call, for the OpenAPI document (the hot path checks them by hand). */
export const clientRequestHeadersSchema = z.object({
  [clientApiHeaders.nonce]: z
    .string()
    .max(CLIENT_NONCE_MAX_LENGTH)
    .regex(CLIENT_NONCE_PATTERN)
    .optional()
    .meta({
      description:
        'Optional, at most 128 visible ASCII characters: bound into the signature, so a recorded answer cannot be replayed to this request.',
    }),
});

/** Longest accepted values; anything longer is a 400 INVALID_REQUEST. */
export const clientApiLimits = {
  ...appUserLimits,
  version: 64,
  apiKey: 128,
  userId: 128,
  sessionToken: 256,
  licenseKey: 256,
  deviceName: deviceLimits.name,
} as const;

/** A session start lasts this long after the user's last successful login. */
export const SESSION_START_WINDOW_SECONDS = 600;

/**
 * `sess_<random id without dashes>_<unix seconds>`: the client samples' format, also the
 * format of the token login issues. A start needs at least 32 random characters so a session
 * cannot be guessed.
 */
export const SESSION_TOKEN_PATTERN = /^sess_[0-9A-Za-z]{32,128}_\d{1,20}$/;

/** 'field is required' when absent, 'field must be a string' for any other type. */
const stringOf = (field: string) =>
  z.string({
    error: (issue) =>
      issue.input === undefined ? `${field} is required` : `${field} must be a string`,
  });

const hasControlCharacters = (value: string) => /\p{Cc}/u.test(value);
const text = (field: string, max: number) =>
  stringOf(field)
    .max(max, `${field} must be at most ${max} characters`)
    .refine((value) => !hasControlCharacters(value), `${field} contains invalid characters`);
const optionalText = (field: string, max: number) =>
  text(field, max)
    .nullish()
    .transform((value) => value?.trim() || null);

const requiredUsername = text('username', clientApiLimits.username)
  .transform((value) => value.trim())
  .refine((value) => value !== '', 'username is required');
const requiredPassword = stringOf('password')
  .max(clientApiLimits.password, `password must be at most ${clientApiLimits.password} characters`)
  .refine((value) => value !== '', 'password is required');

const licenseKey = stringOf('license_key').max(
  clientApiLimits.licenseKey,
  `license_key must be at most ${clientApiLimits.licenseKey} characters`,
);

/**
 * POST /api/v1/register: username, email, password, expiresAt, hwid, and a `license_key` to
 * redeem in the same transaction (required when the application requires a licence).
 */
export const clientRegisterRequestSchema = z.object({
  username: requiredUsername,
  password: requiredPassword,
  email: z.preprocess(
    (value) => (typeof value === 'string' ? value.trim() || null : value),
    z
      .email('email must be a valid e-mail address')
      .max(clientApiLimits.email, `email must be at most ${clientApiLimits.email} characters`)
      .nullish()
      .transform((value) => value ?? null),
  ),
  /** An expiry the registering client asks for (never longer than "no expiry", the default). */
  expiresAt: z.preprocess(
    (value) => (value === '' ? null : value),
    z.iso
      .datetime({ offset: true, error: 'expiresAt must be an ISO date-time' })
      .nullish()
      .transform((value) => (value ? new Date(value) : null)),
  ),
  hwid: optionalText('hwid', clientApiLimits.hwid),
  license_key: licenseKey.nullish().transform((value) => value?.trim() || null),
});
export type ClientRegisterRequest = z.input<typeof clientRegisterRequestSchema>;
export type ClientRegisterInput = z.output<typeof clientRegisterRequestSchema>;

/**
 * POST /api/v1/password/forgot: the username or the e-mail address of the account whose
 * password is forgotten (exactly one). The answer is the same whether or not it exists.
 */
export const clientForgotPasswordRequestSchema = z
  .object({
    username: optionalText('username', clientApiLimits.username),
    email: optionalText('email', clientApiLimits.email),
  })
  .refine(
    (value) => (value.username === null) !== (value.email === null),
    'Send either username or email',
  );
export type ClientForgotPasswordRequest = z.input<typeof clientForgotPasswordRequestSchema>;
export type ClientForgotPasswordInput = z.output<typeof clientForgotPasswordRequestSchema>;

/** The one answer of password/forgot for a known and an unknown account alike. */
export const FORGOT_PASSWORD_ANSWER =
  'If an account matches, a link to choose a new password has been sent to its e-mail address.';

/**
 * POST /api/v1/email/verify/resend: the account whose address is to be verified, proven by
 * its password. The answer is the same whether or not it exists, the password is right or
 * the address is verified already.
 */
export const clientResendVerificationRequestSchema = z.object({
  username: requiredUsername,
  password: requiredPassword,
});
export type ClientResendVerificationRequest = z.input<typeof clientResendVerificationRequestSchema>;
export type ClientResendVerificationInput = z.output<typeof clientResendVerificationRequestSchema>;

/** The one answer of email/verify/resend, whatever the account. */
export const VERIFICATION_RESEND_ANSWER =
  'If this account has an address to confirm, a new link has been sent to it.';

/** POST /api/v1/login: the API key may come in the body instead of X-API-Key. */
export const clientLoginRequestSchema = z.object({
  username: requiredUsername,
  password: requiredPassword,
  api_key: optionalText('api_key', clientApiLimits.apiKey),
  version: optionalText('version', clientApiLimits.version),
  hwid: optionalText('hwid', clientApiLimits.hwid),
  /** A name for the device, such as the machine name; kept with a new binding. */
  device_name: optionalText('device_name', clientApiLimits.deviceName),
});
export type ClientLoginRequest = z.input<typeof clientLoginRequestSchema>;
export type ClientLoginInput = z.output<typeof clientLoginRequestSchema>;

/**
 * POST /api/v1/verify. Any string is accepted; one that is not a user id is USER_NOT_FOUND.
 * `entitlements`, when sent, must all be held, else ENTITLEMENTS_MISSING.
 */
export const clientVerifyRequestSchema = z.object({
  user_id: stringOf('user_id').max(
    clientApiLimits.userId,
    `user_id must be at most ${clientApiLimits.userId} characters`,
  ),
  entitlements: z
    .array(
      stringOf('entitlements[]').max(64, 'entitlements[] must be at most 64 characters'),
      'entitlements must be an array of strings',
    )
    .max(50, 'entitlements must hold at most 50 codes')
    .optional(),
});
export type ClientVerifyRequest = z.input<typeof clientVerifyRequestSchema>;

/** A `session_token` field: required, a string, at most the limit's characters. */
export const clientSessionTokenField = stringOf('session_token').max(
  clientApiLimits.sessionToken,
  `session_token must be at most ${clientApiLimits.sessionToken} characters`,
);

/**
 * POST /api/v1/session/track: start (user_id, session_token and optionally the hwid the login
 * sent), heartbeat or end (token only).
 */
export const clientSessionRequestSchema = z.discriminatedUnion(
  'action',
  [
    z.object({
      action: z.literal('start'),
      user_id: clientVerifyRequestSchema.shape.user_id,
      session_token: clientSessionTokenField,
      hwid: optionalText('hwid', clientApiLimits.hwid),
    }),
    z.object({ action: z.literal('heartbeat'), session_token: clientSessionTokenField }),
    z.object({ action: z.literal('end'), session_token: clientSessionTokenField }),
  ],
  { error: 'action must be start, heartbeat or end' },
);
export type ClientSessionRequest = z.infer<typeof clientSessionRequestSchema>;

/** A subscription as login and verify answer it: the plan's name and its expiry (null: lifetime). */
export const clientSubscriptionSchema = z.object({
  plan: z.string(),
  expires_at: z.iso.datetime().nullable(),
});

/** What login and verify add for licensing: active subscriptions only. */
const licensingFields = {
  /** Sorted codes of the plans of the user's active subscriptions. */
  entitlements: z.array(z.string()).optional(),
  subscriptions: z.array(clientSubscriptionSchema).optional(),
  /**
   * The end of the user's updates window: releases published later are refused with
   * UPDATES_EXPIRED. Null: no window (every release).
   */
  updates_until: z.iso.datetime().nullable().optional(),
  /** The usage meters of the user's active subscriptions, by name; absent when none has one. */
  meters: z.array(clientMeterSchema).optional(),
};

/** POST /api/v1/license/redeem: the holder adds a key to their account. */
export const clientRedeemRequestSchema = z.object({
  username: requiredUsername,
  password: requiredPassword,
  license_key: licenseKey,
});
export type ClientRedeemRequest = z.input<typeof clientRedeemRequestSchema>;

/** POST /api/v1/license/login: log in with a key alone. */
export const clientLicenseLoginRequestSchema = z.object({
  license_key: licenseKey,
  hwid: optionalText('hwid', clientApiLimits.hwid),
  version: optionalText('version', clientApiLimits.version),
  device_name: optionalText('device_name', clientApiLimits.deviceName),
});
export type ClientLicenseLoginRequest = z.input<typeof clientLicenseLoginRequestSchema>;
export type ClientLicenseLoginInput = z.output<typeof clientLicenseLoginRequestSchema>;

/**
 * POST /api/v1/trial: start (or resume) this machine's trial. `hwid` names the machine and is
 * required; `username` names the trial's account when the machine has none yet.
 */
export const clientTrialRequestSchema = z.object({
  hwid: text('hwid', clientApiLimits.hwid)
    .transform((value) => value.trim())
    .refine((value) => value !== '', 'hwid is required'),
  username: optionalText('username', clientApiLimits.username),
  version: optionalText('version', clientApiLimits.version),
  device_name: optionalText('device_name', clientApiLimits.deviceName),
});
export type ClientTrialRequest = z.input<typeof clientTrialRequestSchema>;
export type ClientTrialInput = z.output<typeof clientTrialRequestSchema>;

/**
 * POST /api/v1/devices/reset: the end user releases one of their devices (`hwid`) or all of
 * them (`all: true`), proving who they are with their password.
 */
export const clientDeviceResetRequestSchema = z
  .object({
    username: requiredUsername,
    password: requiredPassword,
    hwid: optionalText('hwid', clientApiLimits.hwid),
    all: z.boolean({ error: 'all must be true or false' }).optional(),
  })
  .superRefine((value, ctx) => {
    if ((value.hwid === null) === (value.all !== true)) {
      ctx.addIssue({ code: 'custom', message: 'Send either hwid or all: true' });
    }
  });
export type ClientDeviceResetRequest = z.input<typeof clientDeviceResetRequestSchema>;
export type ClientDeviceResetInput = z.output<typeof clientDeviceResetRequestSchema>;

export const clientDeviceResetResponseSchema = z
  .object({
    success: z.boolean(),
    message: z.string(),
    code: clientApiCodeSchema,
    /** OK only: how many devices were released. */
    released: z.number().int().optional(),
    /**
     * OK and RESET_COOLDOWN: when the user may release a device again (ISO 8601); null when
     * the application has no cooldown.
     */
    next_reset_at: z.iso.datetime().nullable().optional(),
  })
  .meta({
    id: 'ClientDeviceResetResponse',
    description: 'The answer of devices/reset: outcomes are HTTP 200 with success and a code.',
  });
export type ClientDeviceResetResponse = z.infer<typeof clientDeviceResetResponseSchema>;

/**
 * POST /api/v1/license/checkout: a live session's token, an optional TTL (seconds, from an
 * hour up to the application's `maxOfflineDays`; a TTL past that cap is a 400 too, checked
 * once the application is known) and whether to encrypt the licence to the session's HWID.
 */
export const clientLicenseCheckoutRequestSchema = z.object({
  session_token: clientSessionTokenField,
  ttl_seconds: z
    .number({ error: 'ttl_seconds must be a whole number of seconds' })
    .int('ttl_seconds must be a whole number of seconds')
    .min(
      offlineLicenseLimits.minTtlSeconds,
      `ttl_seconds must be at least ${offlineLicenseLimits.minTtlSeconds} (one hour)`,
    )
    .max(
      offlineLicenseLimits.maxOfflineDays * 86_400,
      `ttl_seconds must be at most ${offlineLicenseLimits.maxOfflineDays * 86_400}`,
    )
    .nullish()
    .transform((value) => value ?? null),
  encrypt: z
    .boolean({ error: 'encrypt must be true or false' })
    .nullish()
    .transform((value) => value ?? false),
});
export type ClientLicenseCheckoutRequest = z.input<typeof clientLicenseCheckoutRequestSchema>;
export type ClientLicenseCheckoutInput = z.output<typeof clientLicenseCheckoutRequestSchema>;

export const clientLicenseCheckoutResponseSchema = z
  .object({
    success: z.boolean(),
    message: z.string(),
    code: clientApiCodeSchema,
    /** OK only: the licence string (`LK1.…` or `LK1E.…`), one line. */
    license: z.string().optional(),
    /** OK only: until when the licence holds (ISO 8601), as inside it. */
    valid_until: z.iso.datetime().optional(),
  })
  .meta({
    id: 'ClientLicenseCheckoutResponse',
    description:
      'The answer of license/checkout: outcomes are HTTP 200 with success and a code; on success the signed licence string.',
  });
export type ClientLicenseCheckoutResponse = z.infer<typeof clientLicenseCheckoutResponseSchema>;

/** What a VERSION_MISMATCH answer offers when the application has a current release. */
export const clientUpdateSchema = z.object({
  version: z.string(),
  file_id: z.uuid(),
  size: z.number().int().min(0),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type ClientUpdate = z.infer<typeof clientUpdateSchema>;

/** Register and login answers: the auth response. */
export const clientAuthResponseSchema = z
  .object({
    success: z.boolean(),
    message: z.string(),
    code: clientApiCodeSchema,
    user_id: z.uuid().optional(),
    username: z.string().optional(),
    email: z.string().nullable().optional(),
    expires_at: z.iso.datetime().nullable().optional(),
    /** True when the account is bound to one device: HWID lock on and a HWID bound. */
    hwid_locked: z.boolean().optional(),
    /** Login only: a fresh `sess_…` token the client may use for session/track start. */
    session_token: z.string().regex(SESSION_TOKEN_PATTERN).optional(),
    /** NO_SEAT_AVAILABLE only: when the first of the leased seats lapses. */
    next_free_at: z.iso.datetime().optional(),
    ...licensingFields,
    /**
     * VERSION_MISMATCH and UPDATES_EXPIRED only: the release this user should run (the current
     * one, or the newest within their updates window), when there is one: fetch it with file.
     */
    update: clientUpdateSchema.optional(),
  })
  .meta({
    id: 'ClientAuthResponse',
    description: 'The answer of register and login: outcomes are HTTP 200 with success and a code.',
  });
export type ClientAuthResponse = z.infer<typeof clientAuthResponseSchema>;

export const clientVerifyResponseSchema = z
  .object({
    success: z.boolean(),
    message: z.string(),
    code: clientApiCodeSchema,
    ...licensingFields,
    /** ENTITLEMENTS_MISSING only: the asked-for codes the user does not hold, sorted. */
    missing_entitlements: z.array(z.string()).optional(),
  })
  .meta({ id: 'ClientVerifyResponse' });
export type ClientVerifyResponse = z.infer<typeof clientVerifyResponseSchema>;

export const clientSessionResponseSchema = z
  .object({
    success: z.boolean(),
    message: z.string(),
    code: clientApiCodeSchema,
    session_token: z.string().optional(),
  })
  .meta({ id: 'ClientSessionResponse' });
export type ClientSessionResponse = z.infer<typeof clientSessionResponseSchema>;

/** The answer of a call that may send mail: success and the same message whoever asked. */
export const clientMailResponseSchema = z
  .object({
    success: z.boolean(),
    message: z.string(),
    code: clientApiCodeSchema,
  })
  .meta({
    id: 'ClientMailResponse',
    description:
      'The answer of a call that may send mail: the same for a known and an unknown account.',
  });
export type ClientMailResponse = z.infer<typeof clientMailResponseSchema>;

/** GET /api/v1/public-key: the server-wide key that signs answers to unknown API keys. */
export const clientPublicKeyResponseSchema = z
  .object({
    success: z.literal(true),
    public_key: z.string().regex(/^[0-9a-f]{64}$/),
  })
  .meta({
    id: 'ClientPublicKeyResponse',
    description: 'The server-wide Ed25519 public key that signs answers to unknown API keys.',
  });
export type ClientPublicKeyResponse = z.infer<typeof clientPublicKeyResponseSchema>;

/** Every /api/v1 HTTP error (400, 401, 404, 413, 429; 5xx with CLIENT_API_SERVER_ERROR_CODE). */
export const clientErrorResponseSchema = z
  .object({
    success: z.literal(false),
    code: z.union([clientApiCodeSchema, z.literal(CLIENT_API_SERVER_ERROR_CODE)]),
    message: z.string(),
  })
  .meta({
    id: 'ClientError',
    description:
      'Every client-API HTTP error (400, 401, 404, 413, 429; a 5xx has code INTERNAL_ERROR).',
  });
export type ClientErrorResponse = z.infer<typeof clientErrorResponseSchema>;

/**
 * How a client keeps its session: what the samples do and what /docs tells vendors to do.
 */
export const clientSessionTiming = {
  heartbeatIntervalSeconds: 30,
  verifyIntervalSeconds: 300,
  maxConsecutiveVerifyFailures: 3,
  httpTimeoutSeconds: 30,
  /** A signed answer whose timestamp is further than this from the client's clock is refused. */
  maxSignatureAgeSeconds: 300,
} as const;

/**
 * The dialog a client shows for a refused login, chosen by `code` (never by message text,
 * which vendors rewrite); `exits` when the program should close.
 */
export const clientRefusalTitles: Partial<
  Record<ClientApiCode, { title: string; exits: boolean }>
> = {
  NO_ACTIVE_SUBSCRIPTION: { title: 'Subscription Required', exits: false },
  ENTITLEMENTS_MISSING: { title: 'Feature Not Included', exits: false },
  LICENSE_INVALID: { title: 'Invalid Licence Key', exits: false },
  LICENSE_USED: { title: 'Licence Key Used', exits: false },
  LICENSE_BANNED: { title: 'Licence Key Banned', exits: false },
  LICENSE_EXPIRED: { title: 'Licence Key Lapsed', exits: false },
  LICENSE_REQUIRED: { title: 'Licence Key Required', exits: false },
  VERSION_MISMATCH: { title: 'Update Required', exits: true },
  UPDATES_EXPIRED: { title: 'Updates Ended', exits: true },
  METER_EXHAUSTED: { title: 'Usage Limit Reached', exits: false },
  METER_NOT_FOUND: { title: 'Feature Not Included', exits: false },
  NO_SEAT_AVAILABLE: { title: 'All Seats In Use', exits: false },
  BORROW_NOT_ALLOWED: { title: 'Borrowing Not Allowed', exits: false },
  TRIAL_UNAVAILABLE: { title: 'Trial Unavailable', exits: false },
  TRIAL_EXPIRED: { title: 'Trial Ended', exits: false },
  TRIAL_USED: { title: 'Trial Already Used', exits: false },
  HWID_MISMATCH: { title: 'Hardware Mismatch', exits: false },
  RESET_NOT_ALLOWED: { title: 'Reset Not Allowed', exits: false },
  RESET_COOLDOWN: { title: 'Reset Not Yet Available', exits: false },
  DEVICE_NOT_FOUND: { title: 'Device Not Found', exits: false },
  MAIL_UNAVAILABLE: { title: 'E-mail Unavailable', exits: false },
  EMAIL_NOT_VERIFIED: { title: 'E-mail Not Verified', exits: false },
  ACCOUNT_EXPIRED: { title: 'Account Expired', exits: false },
  ACCOUNT_DISABLED: { title: 'Account Disabled', exits: false },
  BLACKLISTED: { title: 'Access Blocked', exits: true },
};

/** The account calls of the client API: registering, logging in, sessions, licence keys, devices and mail. */
export const accountClientCalls = {
  register: {
    method: 'POST',
    path: '/api/v1/register',
    summary: 'Creates an end user of the application the API key names.',
    request: clientRegisterRequestSchema,
    response: clientAuthResponseSchema,
    brief: 'username, password, email?, expiresAt?, hwid?',
  },
  login: {
    method: 'POST',
    path: '/api/v1/login',
    summary:
      'Checks the blacklist, the password, the account state, the version and the hardware ID, in that order; the first that fails answers.',
    request: clientLoginRequestSchema,
    response: clientAuthResponseSchema,
    brief: 'username, password, version, hwid?  (api_key may also go in the body)',
  },
  verify: {
    method: 'POST',
    path: '/api/v1/verify',
    summary:
      'Confirms that a user is still in good standing (exists, active, not paused, not expired).',
    request: clientVerifyRequestSchema,
    response: clientVerifyResponseSchema,
    brief: 'user_id: is the user in good standing now?',
  },
  trackSession: {
    method: 'POST',
    path: '/api/v1/session/track',
    summary:
      'Starts a session after a login, keeps it alive with heartbeats and ends it. One body per action.',
    request: clientSessionRequestSchema,
    response: clientSessionResponseSchema,
    brief: 'action start | heartbeat | end, session_token, user_id (start)',
  },
  redeemLicense: {
    method: 'POST',
    path: '/api/v1/license/redeem',
    summary:
      'Adds a licence key to an end user\u2019s account (username and password): it starts or extends the subscription of its plan.',
    request: clientRedeemRequestSchema,
    response: clientAuthResponseSchema,
    brief: 'username, password, license_key: add a key to the account',
  },
  logInWithLicense: {
    method: 'POST',
    path: '/api/v1/license/login',
    summary:
      'Logs in with a licence key alone: its first use creates the end user it stands for, later uses log that user in.',
    request: clientLicenseLoginRequestSchema,
    response: clientAuthResponseSchema,
    brief: 'license_key, version?, hwid?, device_name?: log in with a key alone',
  },
  startTrial: {
    method: 'POST',
    path: '/api/v1/trial',
    summary:
      'Starts this machine\u2019s trial, once per machine: later calls from the machine (a reinstall, another name) log in the trial it already has.',
    request: clientTrialRequestSchema,
    response: clientAuthResponseSchema,
    brief: "hwid, username?, version?, device_name?: start or resume the machine's trial",
  },
  checkOutLicense: {
    method: 'POST',
    path: '/api/v1/license/checkout',
    summary:
      'An offline licence for a live session: one signed line the program verifies without the network until it lapses.',
    request: clientLicenseCheckoutRequestSchema,
    response: clientLicenseCheckoutResponseSchema,
    brief: 'session_token, ttl_seconds?, encrypt?: an offline licence (LK1...)',
  },
  resetDevices: {
    method: 'POST',
    path: '/api/v1/devices/reset',
    summary:
      'Releases one of the end user\u2019s devices, or all of them, when the application allows self-service resets (once per cooldown).',
    request: clientDeviceResetRequestSchema,
    response: clientDeviceResetResponseSchema,
    brief: 'username, password, hwid | all: release a device (self-service)',
  },
  forgotPassword: {
    method: 'POST',
    path: '/api/v1/password/forgot',
    summary:
      'Mails a link to choose a new password (valid 30 minutes, usable once) to the account named by its username or e-mail address. The answer is the same whether or not the account exists.',
    request: clientForgotPasswordRequestSchema,
    response: clientMailResponseSchema,
    brief: 'username | email: mail a link to choose a new password',
  },
  resendVerification: {
    method: 'POST',
    path: '/api/v1/email/verify/resend',
    summary:
      'Mails a new link to confirm the account\u2019s e-mail address (valid 24 hours), for an application that requires verified addresses. The answer is the same whether or not the account exists, the password is right or the address is confirmed already.',
    request: clientResendVerificationRequestSchema,
    response: clientMailResponseSchema,
    brief: 'username, password: mail a new link to confirm the address',
  },
} as const satisfies Record<string, ClientCallEntry>;

/** The client API's call for the server-wide signing key. */
export const signingKeyClientCalls = {
  publicKey: {
    method: 'GET',
    path: '/api/v1/public-key',
    summary: 'The server-wide Ed25519 key that signs answers to requests with no known API key.',
    request: null,
    response: clientPublicKeyResponseSchema,
    brief: 'the server-wide signing key (answers to unknown API keys)',
  },
} as const satisfies Record<string, ClientCallEntry>;
