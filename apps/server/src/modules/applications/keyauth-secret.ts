import { randomBytes, randomInt } from 'node:crypto';
import { createSecretSealer } from '../../lib/secret-sealing.ts';

/**
 * An application's KeyAuth 1.2 secret at rest: sealed like webhook secrets, since the owner
 * must see it again to paste it into their program, and a KeyAuth client proves nothing
 * with it that the database should be able to forge from a dump.
 */
const keyauthSecretSealer = createSecretSealer('latchkey keyauth secret v1', 'KeyAuth secret');

export const sealKeyauthSecret = (secret: string, serverSecret: string): string =>
  keyauthSecretSealer.seal(secret, serverSecret);

export const unsealKeyauthSecret = (sealed: string, serverSecret: string): string =>
  keyauthSecretSealer.unseal(sealed, serverSecret);

/** A new 1.2 secret in KeyAuth's own form: 64 hex characters (256 bits). */
export const generateKeyauthSecret = (): string => randomBytes(32).toString('hex');

const OWNER_ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** A new `ownerid` in KeyAuth's form (10 letters and digits); not a secret. */
export function generateKeyauthOwnerId(): string {
  let ownerId = '';
  for (let index = 0; index < 10; index += 1) {
    ownerId += OWNER_ID_ALPHABET[randomInt(OWNER_ID_ALPHABET.length)];
  }
  return ownerId;
}
