import { z } from 'zod';
import { clientMeterSchema } from './meters.ts';

/**
 * Offline licences: `POST /api/v1/license/checkout` answers a signed licence string a program
 * stores as it likes and verifies without the network until `valid_until`. The format is the
 * contract every language verifies the same way (docs/client-api.md):
 * `LK1.<payload>.<signature>`, or `LK1E.<payload>.<signature>` when encrypted to the HWID.
 */
export const offlineLicenseFormat = {
  /** The plain licence's first segment, and the signed message's domain prefix. */
  plainPrefix: 'LK1',
  plainSigningDomain: 'latchkey-license-v1',
  /** The encrypted licence's; also the HKDF info of its key. */
  encryptedPrefix: 'LK1E',
  encryptedSigningDomain: 'latchkey-license-v1e',
  ivBytes: 12,
  tagBytes: 16,
} as const;

/** How long a licence may be used offline. */
export const offlineLicenseLimits = {
  minTtlSeconds: 3_600,
  defaultTtlSeconds: 7 * 86_400,
  /** The application's `maxOfflineDays`: 1 to 365, 30 unless the owner sets another. */
  minOfflineDays: 1,
  maxOfflineDays: 365,
  defaultMaxOfflineDays: 30,
} as const;

/** What a licence holds: the JSON of its payload (snake_case, like the client API). */
export const offlineLicenseContentSchema = z.object({
  application_id: z.number().int(),
  user_id: z.uuid(),
  username: z.string(),
  /** The HWID of the machine the session runs on (its login's); null when it sent none. */
  hwid: z.string().nullable(),
  entitlements: z.array(z.string()),
  subscriptions: z.array(z.object({ plan: z.string(), expires_at: z.iso.datetime().nullable() })),
  account_expires_at: z.iso.datetime().nullable(),
  /** The end of the holder's updates window (null: every release), as login answers it. */
  updates_until: z.iso.datetime().nullable(),
  /**
   * The usage meters as they stood when the licence was issued (absent when the user has none,
   * and in licences issued before meters existed). A snapshot: usage offline is not counted.
   */
  meters: z.array(clientMeterSchema).optional(),
  issued_at: z.iso.datetime(),
  valid_until: z.iso.datetime(),
  /** Random (a UUID): tells two licences apart, and names this one in the activity log. */
  id: z.uuid(),
});
export type OfflineLicenseContent = z.infer<typeof offlineLicenseContentSchema>;
