import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Webhook signing secrets at rest: AES-256-GCM under a key derived (HKDF-SHA256) from the
 * server secret, as signing-keys.ts does for applications' private keys, with its own HKDF
 * label so the two keys differ. The owner can reveal a secret, so it is encrypted, not
 * hashed; a leaked database alone cannot forge our signatures.
 */

const FORMAT_VERSION = 'v1';
const HKDF_INFO = 'latchkey webhook secrets v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class WebhookSecretError extends Error {
  override readonly name = 'WebhookSecretError';
}

const derivedKeys = new Map<string, Buffer>();

/** Memoised: a process has one server secret, and the dispatcher decrypts per delivery. */
function encryptionKeyFor(serverSecret: string): Buffer {
  let key = derivedKeys.get(serverSecret);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', serverSecret, Buffer.alloc(0), HKDF_INFO, 32));
    derivedKeys.set(serverSecret, key);
  }
  return key;
}

/** `v1.<iv>.<tag>.<ciphertext>`, each part base64url. */
export function encryptWebhookSecret(secret: string, serverSecret: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', encryptionKeyFor(serverSecret), iv);
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [
    FORMAT_VERSION,
    ...[iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64url')),
  ].join('.');
}

/** Throws WebhookSecretError when malformed, tampered with, or under another server secret. */
export function decryptWebhookSecret(encrypted: string, serverSecret: string): string {
  const parts = encrypted.split('.');
  const [iv, tag, ciphertext] = parts.slice(1).map((part) => Buffer.from(part, 'base64url'));
  if (
    parts.length !== 4 ||
    parts[0] !== FORMAT_VERSION ||
    iv?.length !== IV_BYTES ||
    tag?.length !== TAG_BYTES ||
    !ciphertext
  ) {
    throw new WebhookSecretError('Malformed encrypted webhook secret');
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', encryptionKeyFor(serverSecret), iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  } catch {
    throw new WebhookSecretError(
      'Webhook secret cannot be decrypted (tampered or wrong server secret)',
    );
  }
}
