import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Secrets the owner may see again (webhook signing secrets, licence keys) at rest: AES-256-GCM
 * under a key derived (HKDF-SHA256) from the server secret, one HKDF label per kind so the keys
 * differ (as signing-keys.ts does for applications' private keys). A leaked database alone
 * yields none of them.
 */

const FORMAT_VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SealedSecretError extends Error {
  override readonly name = 'SealedSecretError';
}

export interface SecretSealer {
  /** `v1.<iv>.<tag>.<ciphertext>`, each part base64url. */
  seal(secret: string, serverSecret: string): string;
  /** Throws SealedSecretError when malformed, tampered with, or under another server secret. */
  unseal(sealed: string, serverSecret: string): string;
}

/** `what` names the secret in error messages ("webhook secret", "licence key"). */
export function createSecretSealer(hkdfInfo: string, what: string): SecretSealer {
  const derivedKeys = new Map<string, Buffer>();
  // Memoised: a process has one server secret, and exports unseal a million keys.
  const keyFor = (serverSecret: string) => {
    let key = derivedKeys.get(serverSecret);
    if (!key) {
      key = Buffer.from(hkdfSync('sha256', serverSecret, Buffer.alloc(0), hkdfInfo, 32));
      derivedKeys.set(serverSecret, key);
    }
    return key;
  };
  return {
    seal(secret, serverSecret) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', keyFor(serverSecret), iv);
      const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return [
        FORMAT_VERSION,
        ...[iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64url')),
      ].join('.');
    },
    unseal(sealed, serverSecret) {
      const parts = sealed.split('.');
      const [iv, tag, ciphertext] = parts.slice(1).map((part) => Buffer.from(part, 'base64url'));
      if (
        parts.length !== 4 ||
        parts[0] !== FORMAT_VERSION ||
        iv?.length !== IV_BYTES ||
        tag?.length !== TAG_BYTES ||
        !ciphertext
      ) {
        throw new SealedSecretError(`Malformed encrypted ${what}`);
      }
      try {
        const decipher = createDecipheriv('aes-256-gcm', keyFor(serverSecret), iv);
        decipher.setAuthTag(tag);
        return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
      } catch {
        throw new SealedSecretError(
          `The ${what} cannot be decrypted (tampered or wrong server secret)`,
        );
      }
    },
  };
}
