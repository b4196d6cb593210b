import { z } from 'zod';
import { userMeterSchema } from './meters.ts';
import { subscriptionSchema } from './subscriptions.ts';

/**
 * The end-user portal: a hosted page per application, `/portal/:publicId`, where an end user
 * signs in with their username and password to see their account, release a device, redeem a
 * licence key and change their password. Its API is `/api/portal/:publicId/…`, with a session
 * cookie of its own scoped to that path; no owner route accepts it, and no portal route
 * accepts an owner cookie.
 */
export const portalLimits = { name: 100, username: 64, password: 1024, licenseKey: 256 } as const;

/** A portal session lasts this long from sign-in: short, since a shared computer may keep it. */
export const PORTAL_SESSION_MINUTES = 30;

/** The public identifier in the portal's address: never the API key. */
export const PORTAL_PUBLIC_ID_PATTERN = /^[0-9a-f]{20}$/;

export const PORTAL_NOT_FOUND = 'Portal not found';
export const PORTAL_SIGN_IN_FAILED = 'Unknown username or wrong password';
export const PORTAL_SESSION_ENDED = 'Your session has ended: please sign in again';
export const PORTAL_WRONG_PASSWORD = 'The current password is not correct';

export const portalParamsSchema = z.object({
  publicId: z.string().regex(PORTAL_PUBLIC_ID_PATTERN, PORTAL_NOT_FOUND),
});
export const portalDeviceParamsSchema = portalParamsSchema.extend({
  deviceId: z.uuid('Invalid device id'),
});

/** GET /api/portal/:publicId: what the sign-in page shows before anyone signs in. */
export const portalInfoSchema = z
  .object({
    name: z.string(),
    publicId: z.string(),
    /** Whether "Forgot password?" can mail a link: false when the server sends no mail. */
    canResetPassword: z.boolean(),
  })
  .meta({
    id: 'PortalInfo',
    description: 'An application’s portal, as its sign-in page shows it.',
  });
export type PortalInfo = z.infer<typeof portalInfoSchema>;

const requiredText = (label: string, max: number) =>
  z
    .string({ error: `Please enter your ${label}` })
    .min(1, `Please enter your ${label}`)
    .max(max, `Your ${label} must be at most ${max} characters`);

/** POST /api/portal/:publicId/session. */
export const portalSignInRequestSchema = z.object({
  username: requiredText('username', portalLimits.username).transform((value) => value.trim()),
  password: requiredText('password', portalLimits.password),
});
export type PortalSignInRequest = z.input<typeof portalSignInRequestSchema>;

/**
 * POST /api/portal/:publicId/password/forgot: "Forgot password?" on the sign-in page, with the
 * username or the e-mail address (the page sends what was typed as one or the other).
 */
export const portalForgotPasswordRequestSchema = z
  .object({
    username: z.string().max(portalLimits.username).nullish(),
    email: z.string().max(254).nullish(),
  })
  .transform((value) => ({
    username: value.username?.trim() || null,
    email: value.email?.trim() || null,
  }))
  .refine(
    (value) => (value.username === null) !== (value.email === null),
    'Please enter your username or your e-mail address',
  );
export type PortalForgotPasswordRequest = z.input<typeof portalForgotPasswordRequestSchema>;

/** The portal's answer to "Forgot password?": the same whether or not an account matched. */
export const portalForgotPasswordResponseSchema = z.object({ message: z.string() }).meta({
  id: 'PortalForgotPasswordAnswer',
  description: 'The same answer whether or not an account matched.',
});

/** A device as the end user sees it: no HWID in full, only its first characters. */
export const portalDeviceSchema = z.object({
  id: z.uuid(),
  name: z.string().nullable(),
  /** The HWID's first 8 characters, to tell unnamed machines apart. */
  hwidPreview: z.string(),
  firstSeenAt: z.iso.datetime(),
  lastSeenAt: z.iso.datetime(),
  /** When the machine was last activated offline through this portal; null: never. */
  activatedOfflineAt: z.iso.datetime().nullable(),
});
export type PortalDevice = z.infer<typeof portalDeviceSchema>;

/** GET /api/portal/:publicId/account (and the sign-in's answer). */
export const portalAccountSchema = z
  .object({
    portalName: z.string(),
    username: z.string(),
    email: z.string().nullable(),
    /** The account's own expiry; null is none. */
    expiresAt: z.iso.datetime().nullable(),
    subscriptions: z.array(subscriptionSchema),
    /** Sorted codes of the active subscriptions. */
    entitlements: z.array(z.string()),
    /** Where the usage meters of the active subscriptions stand; empty when none has one. */
    meters: z.array(userMeterSchema),
    devices: z.array(portalDeviceSchema),
    /** Devices this account may bind. */
    deviceLimit: z.number().int(),
    /** Whether the end user may release devices here. */
    selfServiceReset: z.boolean(),
    /** When the next release is allowed; null: now (or never, when selfServiceReset is off). */
    nextResetAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'PortalAccount', description: 'An end user’s account as their portal shows it.' });
export type PortalAccount = z.infer<typeof portalAccountSchema>;

/** POST /api/portal/:publicId/redeem. */
export const portalRedeemRequestSchema = z.object({
  licenseKey: requiredText('licence key', portalLimits.licenseKey).transform((value) =>
    value.trim(),
  ),
});
export type PortalRedeemRequest = z.input<typeof portalRedeemRequestSchema>;

/** POST /api/portal/:publicId/password. */
export const portalPasswordRequestSchema = z.object({
  currentPassword: requiredText('current password', portalLimits.password),
  newPassword: requiredText('new password', portalLimits.password),
});
export type PortalPasswordRequest = z.input<typeof portalPasswordRequestSchema>;
