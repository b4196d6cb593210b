/**
 * A key's first characters, kept beside its last four so the owner can find a key by how it
 * starts (as `sk_live_…` is shown for a Stripe key). Both are counted in letters and digits:
 * separators carry nothing and an owner may or may not type them.
 */

/**
 * Bits of a key that are never shown, whatever is kept: with 80 unseen bits a brute force of
 * the rest stays out of reach (2^80 guesses, even offline) though the prefix and the last four
 * are known, as they are to anyone who sees the owner's list.
 */
export const MIN_UNSEEN_KEY_BITS = 80;

/** Letters and digits shown at the end of a key (lists, searches). */
export const LICENSE_KEY_SUFFIX_LENGTH = 4;

/** At most this many first characters are kept: enough to tell keys apart, no more. */
export const MAX_LICENSE_KEY_PREFIX_LENGTH = 8;

/**
 * The fewest characters a prefix search takes, and so the shortest prefix worth keeping. Four
 * characters of a 32-symbol alphabet (20 bits) single out about one key in a million, as the
 * last four do; fewer would match a good share of a large application's keys and give the
 * owner a page of noise rather than the key they hold.
 */
export const MIN_LICENSE_KEY_PREFIX_SEARCH_LENGTH = 4;

/** The letters and digits of a key, in order: the characters prefix and suffix count in. */
export function licenseKeyCharacters(key: string): string[] {
  return [...key].filter((character) => /[A-Za-z0-9]/.test(character));
}

/**
 * How many first characters of a key may be kept and shown, given the bits of randomness each
 * of its letters and digits carries (0 for a fixed part of its format, such as a vendor's text
 * prefix): the most, up to MAX_LICENSE_KEY_PREFIX_LENGTH, that leave MIN_UNSEEN_KEY_BITS in
 * the characters between the prefix and the last four. 0 when fewer than
 * MIN_LICENSE_KEY_PREFIX_SEARCH_LENGTH could be kept: a shorter prefix is never searched by,
 * so it would only give bits away.
 */
export function licenseKeyPrefixLength(characterBits: readonly number[]): number {
  const suffixStart = Math.max(0, characterBits.length - LICENSE_KEY_SUFFIX_LENGTH);
  const unseenBits = (prefixLength: number) =>
    characterBits.slice(prefixLength, suffixStart).reduce((sum, bits) => sum + bits, 0);
  for (
    let length = Math.min(MAX_LICENSE_KEY_PREFIX_LENGTH, suffixStart);
    length >= MIN_LICENSE_KEY_PREFIX_SEARCH_LENGTH;
    length -= 1
  ) {
    // A tolerance for sums of log2 terms that are whole bits in exact arithmetic.
    if (unseenBits(length) >= MIN_UNSEEN_KEY_BITS - 1e-9) return length;
  }
  return 0;
}

/** The prefix stored for a key, lower-cased as the last four are, or null for none. */
export function licenseKeyPrefix(key: string, prefixLength: number): string | null {
  if (prefixLength === 0) return null;
  return licenseKeyCharacters(key).slice(0, prefixLength).join('').toLowerCase();
}

/**
 * The prefix a search may name: its letters and digits, lower-cased (so `abcde-fg` and
 * `ABCDEFG` are one search), or null when too short to search by.
 */
export function licenseKeyPrefixSearch(search: string): string | null {
  const typed = licenseKeyCharacters(search).join('').toLowerCase();
  return typed.length >= MIN_LICENSE_KEY_PREFIX_SEARCH_LENGTH ? typed : null;
}
