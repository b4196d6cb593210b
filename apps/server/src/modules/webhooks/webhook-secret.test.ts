import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import {
  generateWebhookSecret,
  isStandardSecretMalformed,
  maskWebhookSecret,
  secretHintOf,
} from './webhook-secret.ts';
import { decryptWebhookSecret, encryptWebhookSecret } from '../../lib/webhook-secret-crypto.ts';

describe('webhook secrets', () => {
  it('generates distinct Standard Webhooks secrets that the reference library signs with', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(24);
    expect(generateWebhookSecret()).not.toBe(secret);
    expect(isStandardSecretMalformed(secret)).toBe(false);

    // The library's key is the secret's base64 part; our delivery engine signs with it too.
    const signature = new Webhook(secret).sign('msg_1', new Date(1_700_000_000_000), '{"a":1}');
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    const expected = createHmac('sha256', key).update('msg_1.1700000000.{"a":1}').digest('base64');
    expect(signature).toBe(`v1,${expected}`);
  });

  it('only checks secrets that claim the whsec_ form', () => {
    expect(isStandardSecretMalformed('any custom secret at all')).toBe(false);
    expect(isStandardSecretMalformed('whsec_')).toBe(true);
    expect(isStandardSecretMalformed(`whsec_${Buffer.alloc(24).toString('base64')}`)).toBe(false);
    expect(isStandardSecretMalformed(`whsec_${Buffer.alloc(64).toString('base64')}`)).toBe(false);
    expect(isStandardSecretMalformed(`whsec_${Buffer.alloc(23).toString('base64')}`)).toBe(true);
  });

  it.each([
    ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'whsec_LaSw', 'whsec_••••LaSw'],
    ['my-own-signing-secret-1234', '1234', '••••1234'],
    ['abcdefg', 'g', '••••g'],
    ['abc', '', '••••'],
  ])('%s is shown as %s', (secret, hint, masked) => {
    expect(secretHintOf(secret)).toBe(hint);
    expect(maskWebhookSecret(secretHintOf(secret))).toBe(masked);
  });

  it('seals reversibly under the server secret only', () => {
    const sealed = encryptWebhookSecret(
      'whsec_secret-value',
      'server-secret-one-which-is-long-enough',
    );
    expect(sealed).not.toContain('secret-value');
    expect(
      encryptWebhookSecret('whsec_secret-value', 'server-secret-one-which-is-long-enough'),
    ).not.toBe(sealed);
    expect(decryptWebhookSecret(sealed, 'server-secret-one-which-is-long-enough')).toBe(
      'whsec_secret-value',
    );
    expect(() => decryptWebhookSecret(sealed, 'another-server-secret-entirely-000')).toThrow();
    const [version, iv, tag, ciphertext] = sealed.split('.');
    const flipped = Buffer.from(ciphertext!, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(() =>
      decryptWebhookSecret(
        [version, iv, tag, flipped.toString('base64url')].join('.'),
        'server-secret-one-which-is-long-enough',
      ),
    ).toThrow();
    expect(() =>
      decryptWebhookSecret('v1.garbage', 'server-secret-one-which-is-long-enough'),
    ).toThrow();
  });
});
