import { describe, expect, it } from 'vitest';
import { decryptWebhookSecret, encryptWebhookSecret } from './webhook-secret-crypto.ts';

const serverSecret = 'a server secret that is long enough for tests';

describe('webhook secret encryption', () => {
  it('round-trips, with a fresh IV each time', () => {
    const first = encryptWebhookSecret('whsec_c2VjcmV0', serverSecret);
    const second = encryptWebhookSecret('whsec_c2VjcmV0', serverSecret);
    expect(first).not.toBe(second);
    expect(first).not.toContain('c2VjcmV0');
    expect(decryptWebhookSecret(first, serverSecret)).toBe('whsec_c2VjcmV0');
    expect(
      decryptWebhookSecret(encryptWebhookSecret('plain sécret', serverSecret), serverSecret),
    ).toBe('plain sécret');
  });

  it('refuses a tampered IV, tag or ciphertext, another server secret, and garbage', () => {
    const encrypted = encryptWebhookSecret('whsec_c2VjcmV0', serverSecret);
    // Flip a bit of a decoded byte, never a base64url character: the last character of a
    // part may carry only padding bits, so changing it can leave the bytes as they were.
    for (const [partIndex, partName] of [
      [1, 'iv'],
      [2, 'tag'],
      [3, 'ciphertext'],
    ] as const) {
      const parts = encrypted.split('.');
      const bytes = Buffer.from(parts[partIndex]!, 'base64url');
      const byteIndex = bytes.length - 1;
      bytes[byteIndex] = bytes[byteIndex]! ^ 0x01;
      parts[partIndex] = bytes.toString('base64url');
      expect(() => decryptWebhookSecret(parts.join('.'), serverSecret), partName).toThrow(
        /cannot be decrypted/,
      );
    }
    expect(() => decryptWebhookSecret(encrypted, `${serverSecret}!`)).toThrow(
      /cannot be decrypted/,
    );
    expect(() => decryptWebhookSecret('v1.abc', serverSecret)).toThrow(/Malformed/);
  });
});
