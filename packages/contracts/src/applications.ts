import { z } from 'zod';
import { deviceLimits } from './devices.ts';
import { keyauthSettingsFields } from './keyauth.ts';
import { offlineLicenseLimits } from './offline-licenses.ts';
import { applicationTrialFields, applicationTrialSettingsFields } from './trials.ts';

/** Longest accepted values; longer input is a 400, never a database error. */
export const applicationLimits = {
  name: 100,
  description: 1000,
  version: 32,
  message: 500,
  maxSessionsPerUser: 1000,
  portalName: 100,
  mailSenderName: 100,
  mailReplyTo: 254,
  /** Reminders go out at most this many days before an end of access. */
  maxExpiryReminderDays: 60,
} as const;

export const DEFAULT_APPLICATION_VERSION = '1.0.0';

/**
 * What every application API key begins with: recognisable in logs, code and secret
 * scanners ("live" leaves room for test keys later). Shared so the console can preview the
 * part of a key that tells it apart from the others.
 */
export const API_KEY_PREFIX = 'lk_live_';

/** The six per-application texts shown to end users, in the order the console lists them. */
export const applicationMessageFields = [
  'loginSuccessMessage',
  'loginFailedMessage',
  'accountDisabledMessage',
  'accountExpiredMessage',
  'versionMismatchMessage',
  'hwidMismatchMessage',
] as const;
export type ApplicationMessageField = (typeof applicationMessageFields)[number];

/**
 * Texts a new application starts with. The client samples recognise outcomes by words in
 * these texts ("update", "HWID", "expired", "disabled"), so every default contains its word.
 */
export const defaultApplicationMessages: Record<ApplicationMessageField, string> = {
  loginSuccessMessage: 'Login successful!',
  loginFailedMessage: 'Invalid username or password',
  accountDisabledMessage: 'Your account has been disabled. Please contact support.',
  accountExpiredMessage: 'Your account has expired. Please renew your license.',
  versionMismatchMessage: 'A new version is available. Please update the application.',
  hwidMismatchMessage: 'HWID mismatch: this account is locked to another device.',
};

export const applicationMessageLabels: Record<ApplicationMessageField, string> = {
  loginSuccessMessage: 'Login success',
  loginFailedMessage: 'Login failed',
  accountDisabledMessage: 'Account disabled',
  accountExpiredMessage: 'Account expired',
  versionMismatchMessage: 'Version mismatch',
  hwidMismatchMessage: 'HWID mismatch',
};

export const APPLICATION_NAME_REQUIRED = 'Please enter an application name';

/** An application as the owner API returns it. The signing private key never appears here. */
export const applicationSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    description: z.string().nullable(),
    apiKey: z.string(),
    isActive: z.boolean(),
    version: z.string(),
    hwidLockEnabled: z.boolean(),
    /** Concurrent sessions per end user; null is unlimited. */
    maxSessionsPerUser: z.number().int().nullable(),
    /** Registration needs a licence key; users without an active subscription are refused. */
    licenseRequired: z.boolean(),
    /** Devices an end user may bind under HWID lock; a plan may raise it. */
    maxDevices: z.number().int(),
    /** End users may release their own devices (POST /api/v1/devices/reset). */
    selfServiceReset: z.boolean(),
    /** Hours between two self-service resets of one user; 0 is none. */
    resetCooldownHours: z.number().int(),
    /** A device unseen this many days gives its seat to a new one; null is never. */
    releaseInactiveAfterDays: z.number().int().nullable(),
    /** The longest an offline licence (license/checkout) may last, in days. */
    maxOfflineDays: z.number().int(),
    /** The file a VERSION_MISMATCH answer offers as the update; null: none. */
    currentReleaseFileId: z.uuid().nullable(),
    /** The end-user portal at /portal/{portalPublicId} is on. */
    portalEnabled: z.boolean(),
    /** The name the portal shows; null: the application's name. */
    portalName: z.string().nullable(),
    /** The portal's address: a public identifier, never the API key. Read-only. */
    portalPublicId: z.string(),
    /** The display name of mail to end users; null: the application's name. */
    mailSenderName: z.string().nullable(),
    /** Where end users' answers to that mail go (the vendor's address); null: none. */
    mailReplyTo: z.string().nullable(),
    /** Login, key login and verify answer EMAIL_NOT_VERIFIED until the user confirms their address. */
    requireVerifiedEmail: z.boolean(),
    /** A mail to the end user when a new device binds to their account. */
    newDeviceMail: z.boolean(),
    /** Days before an end of access (a subscription's, an account's) to mail a reminder; null: none. */
    expiryReminderDays: z.number().int().nullable(),
    ...applicationTrialFields,
    loginSuccessMessage: z.string(),
    loginFailedMessage: z.string(),
    accountDisabledMessage: z.string(),
    accountExpiredMessage: z.string(),
    versionMismatchMessage: z.string(),
    hwidMismatchMessage: z.string(),
    /** The KeyAuth-compatible client API (/api/1.2, /api/1.3) answers for this application. */
    keyauthCompatibility: z.boolean(),
    /** KeyAuth's `ownerid` (10 characters); with the name, how KeyAuth's clients find the application. */
    keyauthOwnerId: z.string().nullable(),
    /** KeyAuth's application `name`. */
    keyauthName: z.string().nullable(),
    /** API 1.2's HMAC secret (64 hex), shown to the owner like the API key. */
    keyauthSecret: z.string().nullable(),
    /** How long a KeyAuth `init` session lives, in hours. */
    keyauthSessionHours: z.number().int(),
    /** Ed25519 public key (raw 32 bytes, hex) that verifies this application's client-API responses. */
    signingPublicKey: z.string().regex(/^[0-9a-f]{64}$/),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({
    id: 'Application',
    description: 'An application. Its signing private key never appears.',
  });
export type Application = z.infer<typeof applicationSchema>;

export const applicationListSchema = z.array(applicationSchema);

/** Blank optional text is stored as "no value". */
const optionalText = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .nullable()
    .transform((value) => value || null)
    .optional();

const applicationName = z
  .string()
  .trim()
  .max(
    applicationLimits.name,
    `Application name must be at most ${applicationLimits.name} characters`,
  );

const applicationMessage = z
  .string()
  .trim()
  .min(1, 'Messages cannot be empty')
  .max(
    applicationLimits.message,
    `Messages must be at most ${applicationLimits.message} characters`,
  );

/** POST /api/applications: a name that must not be blank, and an optional description. */
export const createApplicationRequestSchema = z
  .object({
    // Optional here so a missing name gets the spec's message below, not a type error.
    name: applicationName.optional(),
    description: optionalText(applicationLimits.description, 'Description'),
  })
  .superRefine((value, ctx) => {
    if (!value.name) ctx.addIssue({ code: 'custom', message: APPLICATION_NAME_REQUIRED });
  })
  .transform((value) => ({ name: value.name ?? '', description: value.description ?? null }));
export type CreateApplicationRequest = z.input<typeof createApplicationRequestSchema>;
export type CreateApplicationInput = z.output<typeof createApplicationRequestSchema>;

/** The device fields of PUT /api/applications/:id (all optional, like the rest of it). */
const applicationDeviceSettingsFields = {
  maxDevices: z
    .number({ error: 'Device limit must be a whole number' })
    .int('Device limit must be a whole number')
    .min(1, 'Device limit must be at least 1')
    .max(deviceLimits.maxDevices, `Device limit must be at most ${deviceLimits.maxDevices}`)
    .optional(),
  selfServiceReset: z.boolean({ error: 'selfServiceReset must be true or false' }).optional(),
  resetCooldownHours: z
    .number({ error: 'Reset cooldown must be a whole number of hours' })
    .int('Reset cooldown must be a whole number of hours')
    .min(0, 'Reset cooldown cannot be negative')
    .max(
      deviceLimits.resetCooldownHours,
      `Reset cooldown must be at most ${deviceLimits.resetCooldownHours} hours`,
    )
    .optional(),
  /** Null: devices are never released for inactivity. */
  releaseInactiveAfterDays: z
    .number({ error: 'Inactivity release must be a whole number of days' })
    .int('Inactivity release must be a whole number of days')
    .min(1, 'Inactivity release must be at least 1 day (leave it empty for never)')
    .max(
      deviceLimits.releaseInactiveAfterDays,
      `Inactivity release must be at most ${deviceLimits.releaseInactiveAfterDays} days`,
    )
    .nullable()
    .optional(),
};

/**
 * PUT /api/applications/:id. The console sends every field, every time; each is optional so a
 * partial update works too. Unknown fields (id, apiKey, ...) are ignored.
 */
export const updateApplicationRequestSchema = z
  .object({
    name: applicationName.optional(),
    description: optionalText(applicationLimits.description, 'Description'),
    version: z
      .string()
      .trim()
      .min(1, 'Please enter a version')
      .max(
        applicationLimits.version,
        `Version must be at most ${applicationLimits.version} characters`,
      )
      .optional(),
    isActive: z.boolean().optional(),
    hwidLockEnabled: z.boolean().optional(),
    /** Null (or absent from a new application) is unlimited. */
    maxSessionsPerUser: z
      .number({ error: 'Session limit must be a whole number' })
      .int('Session limit must be a whole number')
      .min(1, 'Session limit must be at least 1 (leave it empty for no limit)')
      .max(
        applicationLimits.maxSessionsPerUser,
        `Session limit must be at most ${applicationLimits.maxSessionsPerUser}`,
      )
      .nullable()
      .optional(),
    licenseRequired: z.boolean({ error: 'licenseRequired must be true or false' }).optional(),
    ...applicationDeviceSettingsFields,
    maxOfflineDays: z
      .number({ error: 'Offline days must be a whole number' })
      .int('Offline days must be a whole number')
      .min(
        offlineLicenseLimits.minOfflineDays,
        `Offline days must be at least ${offlineLicenseLimits.minOfflineDays}`,
      )
      .max(
        offlineLicenseLimits.maxOfflineDays,
        `Offline days must be at most ${offlineLicenseLimits.maxOfflineDays}`,
      )
      .optional(),
    /** A complete file of this application, or null to offer no update. */
    currentReleaseFileId: z.uuid('Invalid file id').nullable().optional(),
    portalEnabled: z.boolean({ error: 'portalEnabled must be true or false' }).optional(),
    portalName: optionalText(applicationLimits.portalName, 'Portal name'),
    // A mail header carries both: no line break may reach it.
    mailSenderName: optionalText(applicationLimits.mailSenderName, 'Sender name').refine(
      (value) => !value || !/[\r\n\u0085\u2028\u2029]/.test(value),
      'Sender name must be one line',
    ),
    mailReplyTo: z.preprocess(
      (value) => (typeof value === 'string' ? value.trim() || null : value),
      z
        .email('Reply-to must be an e-mail address')
        .max(
          applicationLimits.mailReplyTo,
          `Reply-to must be at most ${applicationLimits.mailReplyTo} characters`,
        )
        .nullable()
        .optional(),
    ),
    requireVerifiedEmail: z
      .boolean({ error: 'requireVerifiedEmail must be true or false' })
      .optional(),
    newDeviceMail: z.boolean({ error: 'newDeviceMail must be true or false' }).optional(),
    expiryReminderDays: z
      .number({ error: 'Reminder days must be a whole number' })
      .int('Reminder days must be a whole number')
      .min(1, 'Reminder days must be at least 1')
      .max(
        applicationLimits.maxExpiryReminderDays,
        `Reminder days must be at most ${applicationLimits.maxExpiryReminderDays}`,
      )
      .nullable()
      .optional(),
    loginSuccessMessage: applicationMessage.optional(),
    loginFailedMessage: applicationMessage.optional(),
    accountDisabledMessage: applicationMessage.optional(),
    accountExpiredMessage: applicationMessage.optional(),
    versionMismatchMessage: applicationMessage.optional(),
    hwidMismatchMessage: applicationMessage.optional(),
    ...applicationTrialSettingsFields,
    ...keyauthSettingsFields,
  })
  .superRefine((value, ctx) => {
    if (value.name === '') ctx.addIssue({ code: 'custom', message: APPLICATION_NAME_REQUIRED });
  });
export type UpdateApplicationRequest = z.input<typeof updateApplicationRequestSchema>;
export type UpdateApplicationInput = z.output<typeof updateApplicationRequestSchema>;

const MAX_SERIAL_ID = 2_147_483_647;

/** A positive integer id from a path segment; anything else is a 400, not a database error. */
export const applicationIdSchema = z
  .string()
  .regex(/^[1-9]\d{0,9}$/, 'Invalid application id')
  .transform(Number)
  .refine((id) => id <= MAX_SERIAL_ID, 'Invalid application id');

/** Path parameters of /api/applications/:id/... */
export const applicationParamsSchema = z.object({ id: applicationIdSchema });

/** GET /api/applications/:id/stats. */
export const applicationStatsSchema = z
  .object({
    totalUsers: z.number().int(),
    /** Users that can log in now: active, not paused, not expired. */
    activeUsers: z.number().int(),
    /** End-user sessions not ended and seen within the last 90 seconds. */
    activeSessions: z.number().int(),
    totalApiRequests: z.number().int(),
    /** Successful logins as a percent (0-100, one decimal) of all login attempts; 0 when none. */
    loginSuccessRate: z.number().min(0).max(100),
    lastActivity: z.iso.datetime().nullable(),
    /** Licence keys not yet redeemed (past their redeem-by date included) and redeemed ones. */
    unusedLicenses: z.number().int(),
    usedLicenses: z.number().int(),
  })
  .meta({ id: 'ApplicationStats' });
export type ApplicationStats = z.infer<typeof applicationStatsSchema>;

/** Body of a successful DELETE. */
export const deletedResponseSchema = z
  .object({ success: z.literal(true), message: z.string() })
  .meta({ id: 'Deleted', description: 'The answer of a successful DELETE.' });
export type DeletedResponse = z.infer<typeof deletedResponseSchema>;
