import { availableParallelism } from 'node:os';
import { hash, parseOptions, verify, type Algorithm } from '@node-rs/argon2';
import { verify as verifyBcrypt } from '@node-rs/bcrypt';
import pLimit from 'p-limit';
import { checkPasswordHash, OWN_ARGON2_COST } from './password-hash-bounds.ts';

/**
 * OWASP's argon2id baseline (m=19456 KiB, t=2, p=1): about 12 ms per hash here. The
 * algorithm is an ambient const enum in the typings, hence the literal (2 = Argon2id).
 */
export const PASSWORD_HASH_OPTIONS = {
  algorithm: 2 as Algorithm,
  memoryCost: OWN_ARGON2_COST.memoryKib,
  timeCost: OWN_ARGON2_COST.passes,
  parallelism: OWN_ARGON2_COST.lanes,
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
 * Checks a password against a stored hash. With no hash (unknown user), or a hash this
 * installation refuses to run (password-hash-bounds.ts: a foreign hash whose parameters would
 * cost too much, or a variant we cannot verify), it answers false after the same work on a
 * dummy hash, so response time does not reveal whether a username exists and no stored value
 * decides how much memory or time a login takes.
 */
export async function verifyPassword(
  storedHash: string | null,
  password: string,
): Promise<boolean> {
  const check = storedHash === null ? null : checkPasswordHash(storedHash);
  if (storedHash === null || !check?.isVerifiable) {
    dummyHash ??= hashPassword('latchkey-dummy-password');
    const hashOfNoUser = await dummyHash;
    await oneHashPerCore(() => verify(hashOfNoUser, password)).catch(() => false);
    return false;
  }
  try {
    if (check.kind === 'bcrypt') {
      return await oneHashPerCore(() => verifyBcrypt(password, storedHash));
    }
    return await oneHashPerCore(() => verify(storedHash, password));
  } catch {
    return false;
  }
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
