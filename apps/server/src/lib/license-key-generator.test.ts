import {
  DEFAULT_LICENSE_KEY_MASK,
  licenseKeyAlphabets,
  licenseKeyCases,
  licenseKeyMaskBits,
  licenseKeyMaskProblem,
} from '@latchkey/contracts';
import { describe, expect, it } from 'vitest';
import { generateLicenseKey } from './license-key-generator.ts';

describe('licence key masks', () => {
  it('uses alphabets of at least 32 distinct symbols without the ambiguous ones', () => {
    for (const keyCase of licenseKeyCases) {
      const alphabet = licenseKeyAlphabets[keyCase];
      expect(new Set(alphabet).size).toBe(alphabet.length);
      expect(alphabet.length).toBeGreaterThanOrEqual(32);
      for (const ambiguous of ['0', '1', 'O', 'I', 'l', 'o'])
        expect(alphabet).not.toContain(ambiguous);
    }
  });

  it('counts the bits of randomness and refuses a mask under 80', () => {
    expect(licenseKeyMaskBits(DEFAULT_LICENSE_KEY_MASK, 'upper')).toBe(125);
    expect(licenseKeyMaskProblem(DEFAULT_LICENSE_KEY_MASK, 'upper')).toBeNull();
    expect(licenseKeyMaskProblem('X'.repeat(16), 'upper')).toBeNull();
    expect(licenseKeyMaskProblem('X'.repeat(15), 'upper')).toBe(
      'A mask needs at least 16 X characters with upper case (80 bits of randomness); this one has 75 bits',
    );
    // 47 symbols: 15 characters hold 83 bits.
    expect(licenseKeyMaskProblem('X'.repeat(15), 'mixed')).toBeNull();
    expect(licenseKeyMaskProblem('X'.repeat(14), 'mixed')).toMatch(/at least 15 X characters/);
    expect(licenseKeyMaskProblem('SHOP-XXXXXXXX', 'lower')).toMatch(/this one has 40 bits/);
  });

  it('refuses characters a user could not type back, and overlong masks', () => {
    for (const mask of ['XXXXX XXXXX', 'XXXX/XXXX', 'XX\u00e9XX', 'X,X']) {
      expect(licenseKeyMaskProblem(`${mask}${'X'.repeat(20)}`, 'upper')).toBe(
        'A mask may hold only X (a random character), letters, digits, - and _',
      );
    }
    expect(licenseKeyMaskProblem('X'.repeat(129), 'upper')).toBe(
      'A mask may be at most 128 characters',
    );
  });
});

describe('generateLicenseKey', () => {
  it('fills each X from the alphabet and keeps everything else as written', () => {
    const key = generateLicenseKey('ACME_XXXXXXXX-XXXXXXXX-XXXX', 'upper');
    expect(key).toMatch(/^ACME_[2-9A-HJ-NP-Z]{8}-[2-9A-HJ-NP-Z]{8}-[2-9A-HJ-NP-Z]{4}$/);
    expect(generateLicenseKey(DEFAULT_LICENSE_KEY_MASK, 'lower')).toMatch(
      /^[2-9a-km-np-z]{5}(-[2-9a-km-np-z]{5}){4}$/,
    );
  });

  it('refuses a weak mask instead of minting guessable keys', () => {
    expect(() => generateLicenseKey('XXXX-XXXX', 'upper')).toThrow(/at least 16 X/);
  });

  it('draws every symbol about equally often', () => {
    // 64,000 draws: 2,000 expected per symbol, standard deviation about 44; a 30% band is
    // over 13 deviations wide, so only a biased generator leaves it.
    const counts = new Map<string, number>();
    for (let index = 0; index < 1000; index += 1) {
      for (const character of generateLicenseKey('X'.repeat(64), 'upper')) {
        counts.set(character, (counts.get(character) ?? 0) + 1);
      }
    }
    expect(counts.size).toBe(32);
    for (const count of counts.values()) {
      expect(count).toBeGreaterThan(1400);
      expect(count).toBeLessThan(2600);
    }
  });
});
