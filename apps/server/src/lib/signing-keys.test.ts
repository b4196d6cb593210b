import { describe, expect, it } from 'vitest';
import {
  decryptSigningKey,
  generateSigningKeyPair,
  signWithApplicationKey,
  SigningKeyError,
  verifyApplicationSignature,
} from './signing-keys.ts';

const secret = 'a-test-server-secret-of-at-least-32-characters';
const otherSecret = 'another-server-secret-of-at-least-32-characters';

/** Flips one bit of one base64url part of `v1.<iv>.<tag>.<ciphertext>`. */
function tamper(encrypted: string, partIndex: number): string {
  const parts = encrypted.split('.');
  const bytes = Buffer.from(parts[partIndex]!, 'base64url');
  bytes[0]! ^= 0x01;
  parts[partIndex] = bytes.toString('base64url');
  return parts.join('.');
}

describe('application signing keys', () => {
  it('publishes the raw 32-byte Ed25519 public key as hex and encrypts the private key', () => {
    const key = generateSigningKeyPair(secret);
    expect(key.signingPublicKey).toMatch(/^[0-9a-f]{64}$/);
    expect(key.signingPrivateKeyEncrypted).toMatch(
      /^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]+$/,
    );
    // The PKCS#8 DER of an Ed25519 key starts 302e0201; it must not be readable at rest.
    const ciphertext = Buffer.from(key.signingPrivateKeyEncrypted.split('.')[3]!, 'base64url');
    expect(ciphertext.subarray(0, 4).toString('hex')).not.toBe('302e0201');
    expect(generateSigningKeyPair(secret).signingPublicKey).not.toBe(key.signingPublicKey);
  });

  it('round-trips: the decrypted key signs what the public key verifies', () => {
    const key = generateSigningKeyPair(secret);
    const privateKey = decryptSigningKey(key, secret);
    expect(privateKey.asymmetricKeyType).toBe('ed25519');
    const message = '{"success":true,"message":"Login successful!"}';
    const signature = signWithApplicationKey(privateKey, message);
    expect(signature).toHaveLength(64);
    expect(verifyApplicationSignature(key.signingPublicKey, message, signature)).toBe(true);
    expect(verifyApplicationSignature(key.signingPublicKey, `${message} `, signature)).toBe(false);
    const otherKey = generateSigningKeyPair(secret);
    expect(verifyApplicationSignature(otherKey.signingPublicKey, message, signature)).toBe(false);
  });

  it('refuses a tampered iv, tag or ciphertext', () => {
    const key = generateSigningKeyPair(secret);
    for (const part of [1, 2, 3]) {
      const tampered = {
        ...key,
        signingPrivateKeyEncrypted: tamper(key.signingPrivateKeyEncrypted, part),
      };
      expect(() => decryptSigningKey(tampered, secret)).toThrow(SigningKeyError);
    }
  });

  it('refuses a ciphertext moved to another public key', () => {
    const first = generateSigningKeyPair(secret);
    const second = generateSigningKeyPair(secret);
    expect(() =>
      decryptSigningKey(
        {
          signingPublicKey: second.signingPublicKey,
          signingPrivateKeyEncrypted: first.signingPrivateKeyEncrypted,
        },
        secret,
      ),
    ).toThrow(SigningKeyError);
  });

  it('refuses the wrong server secret', () => {
    const key = generateSigningKeyPair(secret);
    expect(() => decryptSigningKey(key, otherSecret)).toThrow(/tampered or wrong server secret/);
  });

  it('refuses malformed blobs', () => {
    const key = generateSigningKeyPair(secret);
    for (const blob of ['', 'placeholder', 'v2.a.b.c', key.signingPrivateKeyEncrypted.slice(3)]) {
      expect(() => decryptSigningKey({ ...key, signingPrivateKeyEncrypted: blob }, secret)).toThrow(
        SigningKeyError,
      );
    }
  });
});
