import { randomInt } from 'node:crypto';
import {
  licenseKeyAlphabets,
  licenseKeyMaskProblem,
  MASK_RANDOM_CHARACTER,
  type LicenseKeyCase,
} from '@latchkey/contracts';

/**
 * Licence key text from a mask: each `X` becomes a character drawn uniformly (crypto's
 * randomInt, no modulo bias) from the case's alphabet; the rest is copied. The mask must have
 * been checked (licenseKeyMaskProblem): a weak one throws here rather than mint guessable keys.
 */
export function generateLicenseKey(mask: string, keyCase: LicenseKeyCase): string {
  const problem = licenseKeyMaskProblem(mask, keyCase);
  if (problem) throw new Error(problem);
  const alphabet = licenseKeyAlphabets[keyCase];
  let key = '';
  for (const character of mask) {
    key += character === MASK_RANDOM_CHARACTER ? alphabet[randomInt(alphabet.length)] : character;
  }
  return key;
}
