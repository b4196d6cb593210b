import { describe, expect, it } from 'vitest';
import { deriveServerSigningKey } from './server-signing-key.ts';
import { signWithApplicationKey, verifyApplicationSignature } from './signing-keys.ts';

describe('server-wide signing key', () => {
  it('is the same for every instance with the same secret, and differs across secrets', () => {
    const secret = 'a-server-secret-of-at-least-32-characters!';
    const first = deriveServerSigningKey(secret);
    const second = deriveServerSigningKey(secret);
    expect(first.publicKeyHex).toMatch(/^[0-9a-f]{64}$/);
    expect(second.publicKeyHex).toBe(first.publicKeyHex);
    expect(deriveServerSigningKey(`${secret}x`).publicKeyHex).not.toBe(first.publicKeyHex);

    const signature = signWithApplicationKey(second.privateKey, 'hello');
    expect(verifyApplicationSignature(first.publicKeyHex, 'hello', signature)).toBe(true);
    expect(verifyApplicationSignature(first.publicKeyHex, 'hellO', signature)).toBe(false);
  });
});
