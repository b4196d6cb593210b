import { describe, expect, it } from 'vitest';
import { DEFAULT_LICENSE_KEY_MASK } from '@latchkey/contracts';
import { generateLicenseKey } from '../../lib/license-key-generator.ts';
import {
  inferredCharacterBits,
  inferredPrefixLengths,
  maskCharacterBits,
} from './license-key-entropy.ts';
import {
  licenseKeyPrefix,
  licenseKeyPrefixLength,
  licenseKeyPrefixSearch,
  MIN_UNSEEN_KEY_BITS,
} from './license-key-prefix.ts';
import { licenseKeyDisplay, licenseKeySuffix } from './license-key-secrets.ts';

const prefixLengthOfMask = (mask: string, keyCase: 'upper' | 'lower' | 'mixed' = 'upper') =>
  licenseKeyPrefixLength(maskCharacterBits(mask, keyCase));

/** Bits of the characters neither the prefix nor the last four show. */
const unseenBits = (bits: number[], prefixLength: number) =>
  bits.slice(prefixLength, bits.length - 4).reduce((sum, value) => sum + value, 0);

describe('licence key prefix length', () => {
  it('keeps the first group of a default key: 80 of its 125 bits stay unseen', () => {
    expect(prefixLengthOfMask(DEFAULT_LICENSE_KEY_MASK)).toBe(5);
    expect(prefixLengthOfMask(DEFAULT_LICENSE_KEY_MASK, 'lower')).toBe(5);
    // 47 symbols carry more bits each, so a mixed-case key spares one more character.
    expect(prefixLengthOfMask(DEFAULT_LICENSE_KEY_MASK, 'mixed')).toBe(6);
    const bits = maskCharacterBits(DEFAULT_LICENSE_KEY_MASK, 'upper');
    expect(unseenBits(bits, 5)).toBe(MIN_UNSEEN_KEY_BITS);
    expect(unseenBits(bits, 6)).toBeLessThan(MIN_UNSEEN_KEY_BITS);
  });

  it('keeps no prefix when the key cannot spare enough characters to search by', () => {
    // 80 bits in all: the last four alone leave 60 unseen.
    expect(prefixLengthOfMask('XXXXXXXXXXXXXXXX')).toBe(0);
    // 100 bits: 80 unseen only with nothing kept in front.
    expect(prefixLengthOfMask('X'.repeat(20))).toBe(0);
    // Three characters could be spared, fewer than a search takes: none are kept.
    expect(prefixLengthOfMask('X'.repeat(23))).toBe(0);
    expect(prefixLengthOfMask('X'.repeat(24))).toBe(4);
    expect(licenseKeyPrefixLength([])).toBe(0);
  });

  it('counts a fixed part of the format as shown, never as hidden bits', () => {
    // A vendor's text in front is free to show: four letters of it and four random ones.
    expect(prefixLengthOfMask(`ACME-${DEFAULT_LICENSE_KEY_MASK}`)).toBe(8);
    // Fixed text between the random groups hides nothing: had its four characters counted as
    // random, eight characters would have been kept instead of five.
    const middle = 'XXXXX-XXXXX-XXXXX-XXXXX-2026-XXXXX';
    expect(prefixLengthOfMask(middle)).toBe(5);
    expect(unseenBits(maskCharacterBits(middle, 'upper'), 5)).toBe(MIN_UNSEEN_KEY_BITS);
    expect(licenseKeyPrefixLength(Array<number>(29).fill(5))).toBe(8);
  });

  it('never keeps more than eight characters, however long the key', () => {
    expect(prefixLengthOfMask('X'.repeat(128))).toBe(8);
  });
});

describe('licence key prefix, display and search', () => {
  it('keeps the first characters lower-cased, without separators, and shows them', () => {
    const key = 'AbC2E-FGH3J-KLMN4-PQRS5-TUVW6';
    expect(licenseKeyPrefix(key, 5)).toBe('abc2e');
    expect(licenseKeyPrefix(key, 8)).toBe('abc2efgh');
    expect(licenseKeyPrefix(key, 0)).toBeNull();
    expect(licenseKeyDisplay(key, 5)).toBe('AbC2E-•••••-•••••-•••••-•UVW6');
    expect(licenseKeyDisplay(key)).toBe('•••••-•••••-•••••-•••••-•UVW6');
    expect(licenseKeySuffix(key)).toBe('uvw6');
    expect(licenseKeyDisplay('AB-C', 0)).toBe('AB-C');
  });

  it('searches by letters and digits alone, from four of them', () => {
    expect(licenseKeyPrefixSearch('ABCD')).toBe('abcd');
    expect(licenseKeyPrefixSearch(' abcde-FG ')).toBe('abcdefg');
    expect(licenseKeyPrefixSearch('ab-c')).toBeNull();
    expect(licenseKeyPrefixSearch('')).toBeNull();
  });
});

describe('licence key bits inferred from keys minted together', () => {
  const generation = (mask: string, count: number) =>
    Array.from({ length: count }, () => generateLicenseKey(mask, 'upper'));

  it('finds the random positions of a generation, and its fixed text', () => {
    const keys = generation(`ACME-${DEFAULT_LICENSE_KEY_MASK}`, 40);
    const bits = inferredCharacterBits(keys).get(keys[0]!)!;
    expect(bits.slice(0, 4)).toEqual([0, 0, 0, 0]);
    expect(bits.slice(4)).toEqual(Array<number>(25).fill(5));
    expect(new Set(inferredPrefixLengths(keys).values())).toEqual(new Set([8]));
    const defaults = generation(DEFAULT_LICENSE_KEY_MASK, 40);
    expect(new Set(inferredPrefixLengths(defaults).values())).toEqual(new Set([5]));
  });

  it('credits a lone key nothing, a few keys little, and a foreign alphabet nothing', () => {
    const [lone] = generation(DEFAULT_LICENSE_KEY_MASK, 1);
    expect(inferredPrefixLengths([lone!]).get(lone!)).toBe(0);
    // Two keys showing two different characters: one bit per random position, no more.
    expect(inferredCharacterBits(['AB2-X', 'BA2-X']).get('AB2-X')).toEqual([1, 1, 0, 0]);
    // 0, 1, O and I are in none of this server's alphabets: another generator made these.
    const foreign = Array.from(
      { length: 40 },
      (_, index) =>
        `${generateLicenseKey(DEFAULT_LICENSE_KEY_MASK, 'upper').slice(0, -2)}0${index % 2 ? 'O' : 'I'}`,
    );
    expect(Math.max(...inferredPrefixLengths(foreign).values())).toBe(0);
  });

  it('infers each shape of key on its own', () => {
    const keys = [...generation(DEFAULT_LICENSE_KEY_MASK, 30), ...generation('X'.repeat(16), 30)];
    const lengths = inferredPrefixLengths(keys);
    expect(lengths.get(keys[0]!)).toBe(5);
    expect(lengths.get(keys[59]!)).toBe(0);
  });
});
