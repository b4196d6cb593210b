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

  it('refuses a tampered blob, another server secret, and garbage', () => {
    const encrypted = encryptWebhookSecret('whsec_c2VjcmV0', serverSecret);
    const parts = encrypted.split('.');
    const last = parts[3]!;
    parts[3] = `${last.slice(0, -1)}${last.endsWith('A') ? 'B' : 'A'}`;
    expect(() => decryptWebhookSecret(parts.join('.'), serverSecret)).toThrow(
      /cannot be decrypted/,
    );
    expect(() => decryptWebhookSecret(encrypted, `${serverSecret}!`)).toThrow(
      /cannot be decrypted/,
    );
    expect(() => decryptWebhookSecret('v1.abc', serverSecret)).toThrow(/Malformed/);
  });
});
