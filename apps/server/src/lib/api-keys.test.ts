import { describe, expect, it } from 'vitest';
import { API_KEY_PATTERN, createApiKey, isWellFormedApiKey } from './api-keys.ts';

describe('API keys', () => {
  it('carry the prefix and 256 bits of randomness', () => {
    const key = createApiKey();
    expect(key).toMatch(API_KEY_PATTERN);
    const random = Buffer.from(key.slice('lk_live_'.length), 'base64url');
    expect(random).toHaveLength(32);
  });

  it('do not repeat, and their characters look uniformly random', () => {
    const keys = Array.from({ length: 2000 }, createApiKey);
    expect(new Set(keys).size).toBe(keys.length);
    // 2000 keys x 32 bytes: every byte value should appear, none wildly over-represented.
    const counts = new Array<number>(256).fill(0);
    for (const key of keys) {
      for (const byte of Buffer.from(key.slice(8), 'base64url')) counts[byte]! += 1;
    }
    const expected = (2000 * 32) / 256;
    expect(Math.min(...counts)).toBeGreaterThan(expected * 0.6);
    expect(Math.max(...counts)).toBeLessThan(expected * 1.4);
  });

  it('rejects malformed keys before any lookup', () => {
    expect(isWellFormedApiKey(createApiKey())).toBe(true);
    for (const value of [
      '',
      'lk_live_short',
      `lk_test_${'a'.repeat(43)}`,
      42,
      null,
      `${createApiKey()}x`,
    ]) {
      expect(isWellFormedApiKey(value)).toBe(false);
    }
  });
});
