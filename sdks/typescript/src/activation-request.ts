import { createHash, randomBytes } from 'node:crypto';

/**
 * What an activation request names. A program on a machine that never reaches the server writes
 * one; its user pastes it into the application's portal on another computer (signed in, or with
 * the licence key it carries) and pastes the offline licence the portal answers back into the
 * program, which checks it with `verifyOfflineLicense`.
 */
export interface ActivationRequestOptions {
  /** The application's public key (64 hex digits), the one the program pins. */
  publicKey: string;
  /** This machine's HWID, exactly as the program sends it at login. */
  hwid: string;
  /** The licence key the user entered: without a signed-in portal session it decides who. */
  licenseKey?: string;
  /** The account the user named, when they have one (a signed-in portal user must be it). */
  username?: string;
  /** A name for this machine shown to the vendor in the user's devices. */
  deviceName?: string;
  /** Asks for an `LK1E.` licence, encrypted to this machine's HWID, instead of `LK1.`. */
  encrypt?: boolean;
  /** 16 to 64 of `A-Z a-z 0-9 _ -`; 16 random bytes in base64url by default. */
  nonce?: string;
  /** When the request is written (this machine's clock by default). */
  now?: Date;
}

const PREFIX = 'LKA1';
const CHECK_DOMAIN = 'latchkey-activation-v1';
const CHECK_LENGTH = 16;
const HEX_PUBLIC_KEY = /^[0-9a-fA-F]{64}$/;
const NONCE = /^[A-Za-z0-9_-]{16,64}$/;
// A lone surrogate is not Unicode (no UTF-8 encodes it) and the server stores no NUL.
const NOT_TEXT = /[\0\p{Cs}]/u;

/**
 * The text of an activation request, `LKA1.<payload>.<check>`, written without the network:
 * `<payload>` the base64url of the UTF-8 JSON content (`app`, `hwid`, `license_key`,
 * `username`, `device_name`, `encrypt`, `nonce`, `created_at`, in that order; an empty text
 * and `encrypt: false` are left out), `<check>` the first 16 characters of the base64url of
 * SHA-256 over `latchkey-activation-v1.` and the payload segment: nothing secret signs it, the
 * check catches a request copied in part. The same bytes in every Latchkey SDK. Throws
 * `TypeError` for a public key that is not 64 hex digits, an empty HWID, a nonce outside its
 * alphabet or length, or a text that is not Unicode without NUL.
 */
export function createActivationRequest(options: ActivationRequestOptions): string {
  const { publicKey, hwid } = options;
  if (typeof publicKey !== 'string' || !HEX_PUBLIC_KEY.test(publicKey)) {
    throw new TypeError('publicKey must be the application’s Ed25519 public key: 64 hex digits');
  }
  if (typeof hwid !== 'string' || hwid === '') throw new TypeError('hwid is required');
  const nonce = options.nonce ?? randomBytes(16).toString('base64url');
  if (typeof nonce !== 'string' || !NONCE.test(nonce)) {
    throw new TypeError('nonce must be 16 to 64 of A-Z, a-z, 0-9, _ and -');
  }
  const now = options.now ?? new Date();
  if (!(now instanceof Date) || Number.isNaN(now.getTime())) {
    throw new TypeError('now must be a valid Date');
  }
  const texts = {
    hwid,
    licenseKey: options.licenseKey,
    username: options.username,
    deviceName: options.deviceName,
  };
  for (const [name, value] of Object.entries(texts)) {
    if (value !== undefined && (typeof value !== 'string' || NOT_TEXT.test(value))) {
      throw new TypeError(`${name} must be Unicode text without NUL`);
    }
  }
  // The order is the contract's: every SDK writes the same bytes for the same request.
  const content = {
    app: publicKey.toLowerCase(),
    hwid,
    ...(options.licenseKey ? { license_key: options.licenseKey } : {}),
    ...(options.username ? { username: options.username } : {}),
    ...(options.deviceName ? { device_name: options.deviceName } : {}),
    ...(options.encrypt === true ? { encrypt: true } : {}),
    nonce,
    created_at: now.toISOString(),
  };
  const payload = Buffer.from(JSON.stringify(content), 'utf8').toString('base64url');
  const check = createHash('sha256')
    .update(`${CHECK_DOMAIN}.${payload}`, 'ascii')
    .digest('base64url')
    .slice(0, CHECK_LENGTH);
  return `${PREFIX}.${payload}.${check}`;
}
