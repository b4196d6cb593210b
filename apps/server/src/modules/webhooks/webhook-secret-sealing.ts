import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * STAND-IN for the delivery engine's webhook-secret-crypto.ts (issue 12): the owner API
 * only needs to seal a secret when it is saved and open it for the reveal call. At merge,
 * these two functions are replaced by the engine's, which must read what they write.
 *
 * Secrets are reversible on purpose (the owner may reveal them and the engine signs with
 * them), so they are encrypted rather than hashed: AES-256-GCM under a key derived from the
 * server secret with its own HKDF label, so a leaked database alone does not give them away.
 */

const FORMAT_VERSION = 'v1';
const HKDF_INFO = 'latchkey webhook secrets v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

const derivedKeys = new Map<string, Buffer>();

function encryptionKeyFor(serverSecret: string): Buffer {
  let key = derivedKeys.get(serverSecret);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', serverSecret, Buffer.alloc(0), HKDF_INFO, 32));
    derivedKeys.set(serverSecret, key);
  }
  return key;
}

/** `v1.<iv>.<tag>.<ciphertext>`, base64url parts. */
export function sealWebhookSecret(secret: string, serverSecret: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', encryptionKeyFor(serverSecret), iv);
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [
    FORMAT_VERSION,
    ...[iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64url')),
  ].join('.');
}

/** Throws if the value was tampered with or sealed under another server secret. */
export function openWebhookSecret(sealed: string, serverSecret: string): string {
  const [version, iv, tag, ciphertext, ...rest] = sealed.split('.');
  const ivBytes = Buffer.from(iv ?? '', 'base64url');
  const tagBytes = Buffer.from(tag ?? '', 'base64url');
  if (
    version !== FORMAT_VERSION ||
    rest.length > 0 ||
    ivBytes.length !== IV_BYTES ||
    tagBytes.length !== TAG_BYTES ||
    ciphertext === undefined
  ) {
    throw new Error('Malformed sealed webhook secret');
  }
  const decipher = createDecipheriv('aes-256-gcm', encryptionKeyFor(serverSecret), ivBytes);
  decipher.setAuthTag(tagBytes);
  return Buffer.concat([
    decipher.update(Buffer.from(ciphertext, 'base64url')),
    decipher.final(),
  ]).toString('utf8');
}
