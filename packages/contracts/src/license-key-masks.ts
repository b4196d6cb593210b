/**
 * Licence key masks: each `X` of a mask is one random character of the chosen case's alphabet;
 * every other character is kept as written. Shared so the console can say how strong a mask is
 * while the owner types it, with the server's own figures.
 */

export const licenseKeyCases = ['upper', 'lower', 'mixed'] as const;
export type LicenseKeyCase = (typeof licenseKeyCases)[number];

export const DEFAULT_LICENSE_KEY_MASK = 'XXXXX-XXXXX-XXXXX-XXXXX-XXXXX';
export const MASK_RANDOM_CHARACTER = 'X';
/** Below this a key could be guessed offline from a leaked list of a few: refused with 400. */
export const MIN_LICENSE_KEY_BITS = 80;
export const MAX_LICENSE_KEY_MASK_LENGTH = 128;

/**
 * Unambiguous alphabets of at least 32 symbols. Upper: digits 2-9 and the letters without I
 * and O (Crockford's choice: they read as 1 and 0). Lower: the same, keeping `i` (its dot tells
 * it apart) and dropping `l` (it reads as 1) and `o`. Mixed: the upper alphabet plus the
 * lowercase letters whose shape differs from their capital (no c/C, k/K, p/P, s/S, u/U, v/V,
 * w/W, x/X, z/Z), so a key copied by hand keeps its meaning.
 */
export const licenseKeyAlphabets: Record<LicenseKeyCase, string> = {
  upper: '23456789ABCDEFGHJKLMNPQRSTUVWXYZ',
  lower: '23456789abcdefghijkmnpqrstuvwxyz',
  mixed: '23456789ABCDEFGHJKLMNPQRSTUVWXYZabdefghijmnqrty',
};

/** Bits of randomness a key made with this mask and case holds. */
export function licenseKeyMaskBits(mask: string, keyCase: LicenseKeyCase): number {
  let randomCharacters = 0;
  for (const character of mask) if (character === MASK_RANDOM_CHARACTER) randomCharacters += 1;
  return randomCharacters * Math.log2(licenseKeyAlphabets[keyCase].length);
}

/** Why a mask cannot be used, or null when it can. */
export function licenseKeyMaskProblem(mask: string, keyCase: LicenseKeyCase): string | null {
  if ([...mask].length > MAX_LICENSE_KEY_MASK_LENGTH) {
    return `A mask may be at most ${MAX_LICENSE_KEY_MASK_LENGTH} characters`;
  }
  // Separators only: anything a user could not type back, or that a CSV or a URL would mangle.
  if (!/^[A-Za-z0-9_-]*$/.test(mask)) {
    return 'A mask may hold only X (a random character), letters, digits, - and _';
  }
  const bits = licenseKeyMaskBits(mask, keyCase);
  if (bits < MIN_LICENSE_KEY_BITS) {
    const perCharacter = Math.log2(licenseKeyAlphabets[keyCase].length);
    const needed = Math.ceil(MIN_LICENSE_KEY_BITS / perCharacter);
    return `A mask needs at least ${needed} X characters with ${keyCase} case (${MIN_LICENSE_KEY_BITS} bits of randomness); this one has ${Math.floor(bits)} bits`;
  }
  return null;
}
