import { createDecipheriv, hkdfSync, verify, type KeyObject } from 'node:crypto';
import { publicKeyFromHex } from './answer-signature.js';
import type { Meter } from './answer-types.js';

/** What an offline licence holds (the JSON of its payload, snake_case like the client API). */
export interface OfflineLicenseContent {
  application_id: number;
  user_id: string;
  username: string;
  /** The machine it was issued to (the login's HWID), or null when that login sent none. */
  hwid: string | null;
  entitlements: string[];
  subscriptions: { plan: string; expires_at: string | null }[];
  account_expires_at: string | null;
  /**
   * The end of the holder's updates window, as login answers it (null: every release). A
   * licence issued before the field existed has none: it reads as null.
   */
  updates_until: string | null;
  /**
   * The usage meters as they stood when the licence was issued: a snapshot, since use offline
   * is not counted. Empty for a user without any, and for a licence issued before meters
   * existed.
   */
  meters: Meter[];
  issued_at: string;
  valid_until: string;
  id: string;
}

/**
 * Why an offline licence holds or not:
 * - `MALFORMED`: not `LK1.<payload>.<signature>` / `LK1E.…` in canonical base64url;
 * - `BAD_SIGNATURE`: not signed by this application's key (edited, made up, another application's);
 * - `OTHER_APPLICATION`: signed, but naming another application than the one asked for;
 * - `OTHER_MACHINE`: issued to another HWID (an encrypted one does not even decrypt here);
 * - `EXPIRED`: now is at or past `valid_until`;
 * - `CLOCK_MOVED_BACK`: this machine's clock is before the licence's issue or the latest time
 *   the program has seen, beyond the tolerance: set back to stretch the licence.
 */
export const offlineLicenseCodes = [
  'OK',
  'MALFORMED',
  'BAD_SIGNATURE',
  'OTHER_APPLICATION',
  'OTHER_MACHINE',
  'EXPIRED',
  'CLOCK_MOVED_BACK',
] as const;
export type OfflineLicenseCode = (typeof offlineLicenseCodes)[number];

export interface OfflineLicenseCheck {
  success: boolean;
  code: OfflineLicenseCode;
  message: string;
  /** The licence's content once its signature holds (also when its terms refuse it). */
  content?: OfflineLicenseContent;
}

export interface OfflineLicenseOptions {
  /** The application's public key (64 hex digits), the one that signs its answers. */
  publicKey: string | KeyObject;
  /** This machine's HWID, exactly as the program sends it at login. */
  hwid: string;
  /** The application's id, when the program knows it; otherwise the key alone decides. */
  applicationId?: number;
  /** The clock to judge by (this machine's by default). */
  now?: Date;
  /** The latest time the program has seen, kept between runs: a clock before it was set back. */
  lastSeenAt?: Date;
  /** How far the clock may seem to go back before it counts as set back (300 s). */
  clockToleranceSeconds?: number;
}

const PLAIN = { prefix: 'LK1', domain: 'latchkey-license-v1' } as const;
const ENCRYPTED = { prefix: 'LK1E', domain: 'latchkey-license-v1e' } as const;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

const messages: Record<OfflineLicenseCode, string> = {
  OK: 'Offline licence valid',
  MALFORMED: 'This is not an offline licence',
  BAD_SIGNATURE: 'This offline licence is not signed by this application',
  OTHER_APPLICATION: 'This offline licence is for another application',
  OTHER_MACHINE: 'This offline licence belongs to another machine',
  EXPIRED: 'This offline licence has expired',
  CLOCK_MOVED_BACK: 'The system clock was set back',
};

const outcome = (
  code: OfflineLicenseCode,
  content?: OfflineLicenseContent,
): OfflineLicenseCheck => ({
  success: code === 'OK',
  code,
  message: messages[code],
  ...(content ? { content } : {}),
});

/**
 * The bytes of a canonical base64url segment, else null: Node's decoder forgives padding,
 * whitespace, stray characters and non-zero unused bits, so a segment counts only when it
 * re-encodes to exactly itself.
 */
function fromBase64Url(segment: string): Buffer | null {
  const bytes = Buffer.from(segment, 'base64url');
  return BASE64URL.test(segment) && bytes.toString('base64url') === segment ? bytes : null;
}

/**
 * Checks an offline licence from `checkout` without the network: its signature under the
 * pinned key (over the domain and the payload segment as it stands), for `LK1E` its decryption
 * with the key derived from this machine's HWID, then its terms (application, machine,
 * validity, and a clock set back). Never throws for a licence, whatever it holds.
 */
export function verifyOfflineLicense(
  license: string,
  options: OfflineLicenseOptions,
): OfflineLicenseCheck {
  const parts = typeof license === 'string' ? license.split('.') : [];
  const [prefix, payload, signature] = parts;
  const format = prefix === PLAIN.prefix ? PLAIN : prefix === ENCRYPTED.prefix ? ENCRYPTED : null;
  if (parts.length !== 3 || !format || payload === undefined || signature === undefined) {
    return outcome('MALFORMED');
  }
  const payloadBytes = fromBase64Url(payload);
  const signatureBytes = fromBase64Url(signature);
  if (payloadBytes === null || signatureBytes?.length !== 64) return outcome('MALFORMED');

  const key =
    typeof options.publicKey === 'string' ? publicKeyFromHex(options.publicKey) : options.publicKey;
  const signed = Buffer.from(`${format.domain}.${payload}`, 'ascii');
  if (!verify(null, signed, key, signatureBytes)) return outcome('BAD_SIGNATURE');

  let json = payloadBytes;
  if (format === ENCRYPTED) {
    const decrypted = decryptForMachine(payloadBytes, options.hwid, key);
    if (decrypted === null) return outcome('OTHER_MACHINE');
    json = decrypted;
  }
  const content = parseContent(json);
  if (content === null) return outcome('MALFORMED');

  if (options.applicationId !== undefined && content.application_id !== options.applicationId) {
    return outcome('OTHER_APPLICATION', content);
  }
  if (content.hwid !== null && content.hwid !== options.hwid) {
    return outcome('OTHER_MACHINE', content);
  }
  const now = (options.now ?? new Date()).getTime();
  if (now >= Date.parse(content.valid_until)) return outcome('EXPIRED', content);
  const toleranceMs = (options.clockToleranceSeconds ?? 300) * 1000;
  const latestSeen = Math.max(Date.parse(content.issued_at), options.lastSeenAt?.getTime() ?? 0);
  if (now + toleranceMs < latestSeen) return outcome('CLOCK_MOVED_BACK', content);
  return outcome('OK', content);
}

/** AES-256-GCM under HKDF-SHA256(HWID, salt: the raw public key, info: the domain); null: not this machine's. */
function decryptForMachine(sealed: Buffer, hwid: string, key: KeyObject): Buffer | null {
  if (sealed.length < IV_BYTES + TAG_BYTES) return null;
  const rawPublicKey = Buffer.from(key.export({ format: 'jwk' }).x ?? '', 'base64url');
  const aesKey = Buffer.from(
    hkdfSync('sha256', Buffer.from(hwid, 'utf8'), rawPublicKey, ENCRYPTED.domain, 32),
  );
  try {
    const decipher = createDecipheriv('aes-256-gcm', aesKey, sealed.subarray(0, IV_BYTES));
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    return Buffer.concat([
      decipher.update(sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES)),
      decipher.final(),
    ]);
  } catch {
    return null;
  }
}

function parseContent(json: Buffer): OfflineLicenseContent | null {
  let content: unknown;
  try {
    content = JSON.parse(json.toString('utf8'));
  } catch {
    return null;
  }
  if (content === null || typeof content !== 'object') return null;
  const { hwid, valid_until, issued_at, updates_until, meters } = content as Record<
    string,
    unknown
  >;
  const isTime = (value: unknown) => typeof value === 'string' && !Number.isNaN(Date.parse(value));
  if (!isTime(valid_until) || !isTime(issued_at)) return null;
  if (hwid !== null && typeof hwid !== 'string') return null;
  // Licences issued before updates windows existed lack the field: no window, every release.
  // The server leaves meters out for a user without any, as licences issued before them do.
  return {
    ...content,
    updates_until: updates_until ?? null,
    meters: meters ?? [],
  } as OfflineLicenseContent;
}
