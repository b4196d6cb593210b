/** What production demands of SERVER_SECRET; `openssl rand -base64 48` clears it easily. */
export const minimumSecretLength = 32;
export const minimumSecretBits = 128;

/**
 * A deliberately pessimistic estimate of a secret's entropy in bits. Length alone let
 * 41 × 'a' through; this counts only the characters that a guesser could not predict:
 * each is worth the Shannon entropy of the secret's own character distribution (so a tiny
 * alphabet is worth little), and characters that repeat an earlier stretch ('abcabc…') or
 * continue a run or an even step ('aaaa', 'abcd', '2468') are worth nothing.
 */
export function estimateSecretBits(secret: string): number {
  const characters = [...secret];
  const counts = new Map<string, number>();
  for (const character of characters) counts.set(character, (counts.get(character) ?? 0) + 1);
  let bitsPerCharacter = 0;
  for (const count of counts.values()) {
    const share = count / characters.length;
    bitsPerCharacter -= share * Math.log2(share);
  }

  const codes = characters.map((character) => character.codePointAt(0)!);
  let unpredictable = 0;
  let position = 0;
  while (position < codes.length) {
    const repeated = longestEarlierRepeat(characters, position);
    if (repeated >= 3) {
      position += repeated;
      continue;
    }
    const isSteady =
      position >= 2 &&
      Math.abs(codes[position]! - codes[position - 1]!) <= 2 &&
      codes[position]! - codes[position - 1]! === codes[position - 1]! - codes[position - 2]!;
    if (!isSteady) unpredictable += 1;
    position += 1;
  }
  return unpredictable * bitsPerCharacter;
}

/** Why the secret is too weak for production, or null when it is strong enough. */
export function secretWeakness(secret: string): string | null {
  if (secret.length < minimumSecretLength) {
    return `SERVER_SECRET must be at least ${minimumSecretLength} characters`;
  }
  const bits = estimateSecretBits(secret);
  if (bits < minimumSecretBits) {
    return `SERVER_SECRET is too predictable (about ${Math.floor(bits)} bits of entropy, ${minimumSecretBits} needed): generate one with \`openssl rand -base64 48\``;
  }
  return null;
}

/** Length of the longest stretch starting at `position` that already occurred before it. */
function longestEarlierRepeat(characters: string[], position: number): number {
  let longest = 0;
  for (let start = 0; start < position; start += 1) {
    let length = 0;
    while (
      position + length < characters.length &&
      characters[start + length] === characters[position + length]
    ) {
      length += 1;
    }
    longest = Math.max(longest, length);
  }
  return longest;
}
