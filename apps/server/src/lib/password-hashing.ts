import { availableParallelism } from 'node:os';
import { hash, parseOptions, verify, type Algorithm } from '@node-rs/argon2';
import { verify as verifyBcrypt } from '@node-rs/bcrypt';
import pLimit from 'p-limit';

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

/**
 * At most one hash per core at a time; the others wait their turn here, not in libuv's pool.
 * Each argon2id hash walks 19 MiB: four at once on two cores (the pool's four threads) evict
 * each other from the caches, and the machine made 113–139 hashes a second that way against
 * 127–152 with two at a time (BENCHMARKS.md, "One hash per core"). It also leaves the pool's
 * other threads to the file reads and DNS lookups that share it.
 */
const oneHashPerCore = pLimit(availableParallelism());

/** Password hashes running now, and waiting for a core (a login storm shows as waiting). */
export function passwordHashLoad(): { running: number; waiting: number } {
  return { running: oneHashPerCore.activeCount, waiting: oneHashPerCore.pendingCount };
}

/** An argon2id PHC string (salted). The password itself is never stored or logged. */
export function hashPassword(password: string): Promise<string> {
  return oneHashPerCore(() => hash(password, PASSWORD_HASH_OPTIONS));
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
    const hashOfNoUser = await dummyHash;
    await oneHashPerCore(() => verify(hashOfNoUser, password)).catch(() => false);
    return false;
  }
  try {
    if (isBcryptHash(storedHash)) {
      return await oneHashPerCore(() => verifyBcrypt(password, storedHash));
    }
    return await oneHashPerCore(() => verify(storedHash, password));
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
