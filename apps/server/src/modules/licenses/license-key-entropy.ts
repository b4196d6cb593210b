import {
  licenseKeyAlphabets,
  licenseKeyCases,
  MASK_RANDOM_CHARACTER,
  type LicenseKeyCase,
} from '@latchkey/contracts';
import { licenseKeyCharacters, licenseKeyPrefixLength } from './license-key-prefix.ts';

/**
 * Bits of randomness in each letter or digit of a key minted from `mask` (its separators
 * dropped, as licenseKeyCharacters drops them from the key): an `X` is one character drawn
 * uniformly from the case's alphabet, anything else is the same in every key and carries none.
 */
export function maskCharacterBits(mask: string, keyCase: LicenseKeyCase): number[] {
  const perRandomCharacter = Math.log2(licenseKeyAlphabets[keyCase].length);
  return licenseKeyCharacters(mask).map((character) =>
    character === MASK_RANDOM_CHARACTER ? perRandomCharacter : 0,
  );
}

/** Where a key's separators are and how long it is: keys of one mask share it. */
function shapeOf(key: string): string {
  return key.replace(/[A-Za-z0-9]/g, 'X');
}

const SMALLEST_ALPHABET = Math.min(
  ...licenseKeyCases.map((keyCase) => licenseKeyAlphabets[keyCase].length),
);

/**
 * Bits of randomness in each letter or digit of keys whose mask is not known (keys of an
 * installation from before prefixes were kept, keys imported from another service), inferred
 * from keys minted together, e.g. one generation. Only what the keys themselves prove counts:
 * a position where keys of one shape differ is random, one where they all agree is taken as a
 * fixed part of the format (a lone key proves nothing and gets no prefix). A random position is
 * worth no more than the alphabet the keys show: the fewest symbols one of this server's
 * alphabets has, or fewer if fewer different characters were seen; and nothing when a
 * character outside every one of those alphabets shows the keys came from some other
 * generator, whose alphabet could be smaller than what a few keys reveal. Erring low only
 * shortens or drops a prefix; erring high would show bits that must stay unseen.
 */
export function inferredCharacterBits(keys: readonly string[]): Map<string, number[]> {
  const byShape = new Map<string, string[][]>();
  for (const key of keys) {
    const shape = shapeOf(key);
    const group = byShape.get(shape) ?? [];
    group.push(licenseKeyCharacters(key));
    byShape.set(shape, group);
  }
  const bitsByShape = new Map<string, number[]>();
  for (const [shape, group] of byShape) {
    const length = group[0]!.length;
    const isRandom = Array.from({ length }, (_, position) =>
      group.some((characters) => characters[position] !== group[0]![position]),
    );
    const seen = new Set<string>();
    for (const characters of group) {
      characters.forEach((character, position) => {
        if (isRandom[position]) seen.add(character);
      });
    }
    const fitsOurAlphabets = licenseKeyCases.some((keyCase) =>
      [...seen].every((character) => licenseKeyAlphabets[keyCase].includes(character)),
    );
    const perRandomCharacter =
      fitsOurAlphabets && seen.size > 1 ? Math.log2(Math.min(SMALLEST_ALPHABET, seen.size)) : 0;
    bitsByShape.set(
      shape,
      isRandom.map((random) => (random ? perRandomCharacter : 0)),
    );
  }
  return new Map(keys.map((key) => [key, bitsByShape.get(shapeOf(key))!]));
}

/** How many first characters each of keys minted together may keep (inferredCharacterBits). */
export function inferredPrefixLengths(keys: readonly string[]): Map<string, number> {
  const bitsByKey = inferredCharacterBits(keys);
  return new Map(keys.map((key) => [key, licenseKeyPrefixLength(bitsByKey.get(key)!)]));
}
