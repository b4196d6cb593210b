import { z } from 'zod';
import { appUserLimits } from './app-users.ts';
import { deviceLimits } from './devices.ts';

/**
 * Air-gapped activation: a program on a machine that never reaches the server writes an
 * activation request; its user pastes it into the application's portal on any other computer
 * (signed in, or with the licence key the request carries) and pastes the offline licence the
 * portal answers back into the program. The request is signed by nothing secret: it names the
 * machine and who asks, and a check catches a request copied in part.
 *
 * Its text: `LKA1.<payload>.<check>`, `<payload>` the base64url (no padding) of the UTF-8 JSON
 * content below, `<check>` the first 16 characters of the base64url of SHA-256 over the ASCII
 * bytes `latchkey-activation-v1.` followed by `<payload>` as it stands in the text.
 */
export const activationRequestFormat = {
  prefix: 'LKA1',
  checkDomain: 'latchkey-activation-v1',
  checkLength: 16,
  /** The longest request text accepted. */
  maxLength: 4096,
} as const;

/** What an activation request holds (snake_case, as the client API's bodies). */
export const activationRequestContentSchema = z.object({
  /** The application's public key (64 lower-case hex digits): the portal checks it is its own. */
  app: z.string().regex(/^[0-9a-f]{64}$/),
  /** The machine, as the program sends it at login (the SDKs' machine id, itself a hash). */
  hwid: z.string().min(1).max(appUserLimits.hwid),
  /** The key the user entered in the program; without a signed-in portal session it decides who. */
  license_key: z.string().min(1).max(256).optional(),
  /** The account the user named in the program, when they have one. */
  username: z.string().min(1).max(appUserLimits.username).optional(),
  device_name: z.string().max(deviceLimits.name).optional(),
  /** An `LK1E.` licence, encrypted to this machine's HWID, instead of `LK1.`. */
  encrypt: z.boolean().optional(),
  /** Random, from the program: names this request in the activity log. */
  nonce: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/),
  created_at: z.iso.datetime(),
});
export type ActivationRequestContent = z.infer<typeof activationRequestContentSchema>;

export const ACTIVATION_REQUEST_MALFORMED =
  'This is not an activation request, or only part of it was copied: copy it again from the program';
export const ACTIVATION_OTHER_APPLICATION =
  'This activation request comes from another program: paste it into that program\u2019s portal';
export const ACTIVATION_NEEDS_SIGN_IN =
  'This activation request has no licence key: sign in to activate the machine for your account';
export const ACTIVATION_OTHER_ACCOUNT =
  'This activation request names another account: sign in as that account';
export const ACTIVATION_NO_FREE_SEAT =
  'Every seat of your plan is in use: sign out on another computer first';
export const ACTIVATION_NO_BORROWING = 'Your plan\u2019s seats cannot be used offline';
export const ACTIVATION_NO_FREE_DEVICE =
  'Your account has no free device for this machine: release one of your devices first';

/** POST /api/portal/:publicId/offline-activation: the request text as the program showed it. */
export const portalOfflineActivationRequestSchema = z.object({
  request: z
    .string({ error: 'Please paste the activation request' })
    .max(activationRequestFormat.maxLength, ACTIVATION_REQUEST_MALFORMED)
    .transform((text) => text.replace(/\s+/g, ''))
    .refine((text) => text !== '', 'Please paste the activation request'),
});
export type PortalOfflineActivationRequest = z.input<typeof portalOfflineActivationRequestSchema>;

/** The answer: the licence to paste into the program on that machine. */
export const portalOfflineActivationSchema = z
  .object({
    /** `LK1.<payload>.<signature>` (or `LK1E.`), as license/checkout answers it. */
    license: z.string(),
    validUntil: z.iso.datetime(),
    /** The account it is for. */
    username: z.string(),
  })
  .meta({ id: 'PortalOfflineActivation' });
export type PortalOfflineActivation = z.infer<typeof portalOfflineActivationSchema>;
