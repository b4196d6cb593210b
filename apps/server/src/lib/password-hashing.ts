import { hash, parseOptions, verify, type Algorithm } from '@node-rs/argon2';
import { verify as verifyBcrypt } from '@node-rs/bcrypt';

/**
 * OWASP's argon2id baseline (m=19456 KiB, t=2, p=1): about 12 ms per hash here. The
 * algorithm is an ambient const enum in the typings, hence the literal (2 = Argon2id).
 */
export const PASSWORD_HASH_OPTIONS = {
  algorithm: 2 as Algorithm,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
} as const;

/** The PHC prefix every hash made with the current options starts with. */
export const PASSWORD_HASH_PREFIX = '$argon2id$v=19$m=19456,t=2,p=1$';

/** An argon2id PHC string (salted). The password itself is never stored or logged. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, PASSWORD_HASH_OPTIONS);
}

let dummyHash: Promise<string> | null = null;

/**
 * Checks a password against a stored hash. With no hash (unknown user) it still spends the
 * same work on a dummy hash, so response time does not reveal whether a username exists.
 */
export async function verifyPassword(
  storedHash: string | null,
  password: string,
): Promise<boolean> {
  if (storedHash === null) {
    dummyHash ??= hashPassword('latchkey-dummy-password');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    if (isBcryptHash(storedHash)) return await verifyBcrypt(password, storedHash);
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}

/**
 * A bcrypt hash as PHP, Node and OpenBSD write it (`$2a$`, `$2b$`, `$2y$`): what users imported
 * from KeyAuth arrive with (issue 27). Accepted at login, and replaced by an argon2id hash
 * on the first success (needsRehash is true for it), so none outlives its user's next login.
 */
export function isBcryptHash(storedHash: string): boolean {
  return /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/.test(storedHash);
}

/** True when a stored hash was made with weaker or different options and should be redone. */
export function needsRehash(storedHash: string): boolean {
  try {
    const options = parseOptions(storedHash);
    return (
      options.algorithm !== PASSWORD_HASH_OPTIONS.algorithm ||
      options.memoryCost !== PASSWORD_HASH_OPTIONS.memoryCost ||
      options.timeCost !== PASSWORD_HASH_OPTIONS.timeCost ||
      options.parallelism !== PASSWORD_HASH_OPTIONS.parallelism
    );
  } catch {
    return true;
  }
}
