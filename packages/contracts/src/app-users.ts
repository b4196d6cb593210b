import { z } from 'zod';
import { applicationIdSchema } from './applications.ts';
import { pageQueryFields } from './paging.ts';
import { subscriptionSchema } from './subscriptions.ts';

/** Longest accepted values; longer input is a 400, never a database error. */
export const appUserLimits = {
  username: 64,
  email: 254,
  password: 1024,
  hwid: 256,
} as const;

export const USERNAME_AND_PASSWORD_REQUIRED = 'Please fill in username and password';
export const USERNAME_TAKEN = 'Username already exists';

/** An end user as the owner API returns it. The password (and its hash) never appears. */
export const appUserSchema = z
  .object({
    id: z.uuid(),
    applicationId: z.number().int(),
    username: z.string(),
    email: z.string().nullable(),
    /** The end user followed a link mailed to this address, or the owner marked it verified. */
    emailVerified: z.boolean(),
    isActive: z.boolean(),
    isPaused: z.boolean(),
    expiresAt: z.iso.datetime().nullable(),
    /** The HWID of the user's first bound device (the seed's one HWID), or null. */
    hwid: z.string().nullable(),
    /** Devices bound under HWID lock. */
    deviceCount: z.number().int(),
    loginAttempts: z.number().int(),
    lastLogin: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({
    id: 'AppUser',
    description: 'An end user of an application. The password never appears.',
  });
export type AppUser = z.infer<typeof appUserSchema>;

/**
 * An end user as the users lists show one: the user and what they hold, so a row can show the
 * plans and entitlements without a request per row.
 */
export const appUserListRowSchema = appUserSchema
  .extend({
    /** Every subscription held, active or not, by plan name. */
    subscriptions: z.array(subscriptionSchema),
    /** The sorted union of the entitlements of the active subscriptions. */
    entitlements: z.array(z.string()),
    /** Devices this user may bind: the application's limit, or a larger one of an active plan. */
    deviceLimit: z.number().int(),
  })
  .meta({
    id: 'AppUserListRow',
    description: 'An end user with their subscriptions and entitlements, as the users list shows.',
  });
export type AppUserListRow = z.infer<typeof appUserListRowSchema>;

export const appUserListSchema = z.array(appUserListRowSchema);

/** GET /api/applications/:id/users?page=&pageSize=&search= (search: username or e-mail). */
export const appUserListQuerySchema = z.object(pageQueryFields);
export type AppUserListQuery = z.input<typeof appUserListQuerySchema>;

// Blank strings mean "none": the console's forms send '' for an empty field.
const blankToNull = (value: unknown) => (typeof value === 'string' ? value.trim() || null : value);

const hasControlCharacters = (value: string) => /\p{Cc}/u.test(value);

const username = z
  .string()
  .trim()
  .max(appUserLimits.username, `Username must be at most ${appUserLimits.username} characters`)
  .refine((value) => !hasControlCharacters(value), 'Username contains invalid characters');

const password = z
  .string()
  .max(appUserLimits.password, `Password must be at most ${appUserLimits.password} characters`);

/** Optional e-mail: '' or null is "none" (the management page does not require one). */
const email = z.preprocess(
  blankToNull,
  z
    .email('Please enter a valid e-mail address')
    .max(appUserLimits.email, `E-mail must be at most ${appUserLimits.email} characters`)
    .nullish(),
);

/** ISO 8601 date-time with Z or an offset (Date.prototype.toISOString()); '' or null is "never". */
export const appUserExpiresAtField = z.preprocess(
  blankToNull,
  z.iso
    .datetime({
      offset: true,
      error: 'expiresAt must be an ISO date-time, e.g. 2030-01-31T23:59:00Z',
    })
    .nullish()
    .transform((value) => (typeof value === 'string' ? new Date(value) : value)),
);

/** Hardware id; '' or null is "none" (on edit: reset, so the next login binds a new one). */
const hwid = z.preprocess(
  blankToNull,
  z
    .string()
    .max(appUserLimits.hwid, `HWID must be at most ${appUserLimits.hwid} characters`)
    .nullish(),
);

/** POST /api/applications/:id/users: username and password required, the rest optional. */
export const createAppUserRequestSchema = z
  .object({
    // Optional here so a missing field gets the spec's message below, not a type error.
    username: username.optional(),
    email,
    password: password.optional(),
    expiresAt: appUserExpiresAtField,
    hwid,
  })
  .superRefine((value, ctx) => {
    if (!value.username || !value.password?.trim()) {
      ctx.addIssue({ code: 'custom', message: USERNAME_AND_PASSWORD_REQUIRED });
    }
  })
  .transform((value) => ({
    username: value.username ?? '',
    // Stored exactly as typed: a password's spaces are part of it.
    password: value.password ?? '',
    email: value.email ?? null,
    expiresAt: value.expiresAt ?? null,
    hwid: value.hwid ?? null,
  }));
export type CreateAppUserRequest = z.input<typeof createAppUserRequestSchema>;
export type CreateAppUserInput = z.output<typeof createAppUserRequestSchema>;

/**
 * PUT /api/applications/:appId/users/:userId. Every field is optional (absent = unchanged);
 * null or '' clears email, expiresAt and hwid. A non-empty password resets the password.
 */
export const updateAppUserRequestSchema = z
  .object({
    username: username.optional(),
    email,
    password: password.optional(),
    isActive: z.boolean().optional(),
    isPaused: z.boolean().optional(),
    expiresAt: appUserExpiresAtField,
    hwid,
  })
  .superRefine((value, ctx) => {
    if (value.username === '') {
      ctx.addIssue({ code: 'custom', message: 'Please enter a username' });
    }
  })
  .transform(({ password: newPassword, ...rest }) => ({
    ...rest,
    // An empty password field in an edit form means "keep the current one"; one of only
    // spaces is a new password, and the password rule (endUserPasswordProblem) refuses it.
    password: newPassword === '' ? undefined : newPassword,
  }));
export type UpdateAppUserRequest = z.input<typeof updateAppUserRequestSchema>;
export type UpdateAppUserInput = z.output<typeof updateAppUserRequestSchema>;

/** Path parameters of /api/applications/:appId/users/:userId/... */
export const appUserParamsSchema = z.object({
  appId: applicationIdSchema,
  userId: z.uuid('Invalid user id'),
});

/** Path parameters of /api/applications/:appId/users/:userId/devices/:deviceId. */
export const deviceParamsSchema = appUserParamsSchema.extend({
  deviceId: z.uuid('Invalid device id'),
});
