import { randomBytes } from 'node:crypto';
import {
  licenseKeyAlphabets,
  licenseKeyMaskProblem,
  MASK_RANDOM_CHARACTER,
  type LicenseKeyCase,
} from '@latchkey/contracts';

/** Random bytes drawn at a time: one call to the CSPRNG serves many keys. */
const POOL_BYTES = 16_384;
let pool = randomBytes(0);
let poolOffset = 0;

/**
 * A uniform index below `size` (at most 256): bytes at or above the largest multiple of
 * `size` are rejected rather than reduced, so no character is likelier than another. For the
 * 32-symbol alphabets nothing is ever rejected.
 */
function randomIndex(size: number): number {
  const limit = 256 - (256 % size);
  for (;;) {
    if (poolOffset >= pool.length) {
      pool = randomBytes(POOL_BYTES);
      poolOffset = 0;
    }
    const byte = pool[poolOffset++]!;
    if (byte < limit) return byte % size;
  }
}

/**
 * Licence key text from a mask: each `X` becomes a character drawn uniformly from the case's
 * alphabet (crypto-random bytes, rejection-sampled: no modulo bias); the rest is copied. The
 * mask must have been checked (licenseKeyMaskProblem): a weak one throws here rather than mint
 * guessable keys. Bytes come from a pool refilled from the CSPRNG: crypto.randomInt per
 * character made 10,000 keys take about a quarter of a second on its own.
 */
export function generateLicenseKey(mask: string, keyCase: LicenseKeyCase): string {
  const problem = licenseKeyMaskProblem(mask, keyCase);
  if (problem) throw new Error(problem);
  const alphabet = licenseKeyAlphabets[keyCase];
  let key = '';
  for (const character of mask) {
    key += character === MASK_RANDOM_CHARACTER ? alphabet[randomIndex(alphabet.length)] : character;
  }
  return key;
}
