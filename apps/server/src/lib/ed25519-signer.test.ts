import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createEd25519Signer, ed25519Implementation } from './ed25519-signer.ts';

describe('Ed25519 signer', () => {
  it('uses libsodium here, and gives the same signatures as node:crypto', () => {
    expect(ed25519Implementation).toBe('libsodium');
    const { privateKey } = generateKeyPairSync('ed25519');
    const fast = createEd25519Signer(privateKey);
    const portable = createEd25519Signer(privateKey, 'node:crypto');
    for (const message of ['', '1775044800..{"success":true}', Buffer.from([0, 255, 1, 254])]) {
      const signature = fast(message);
      expect(signature).toHaveLength(64);
      expect(signature.equals(portable(message))).toBe(true);
    }
  });

  it('refuses keys that are not Ed25519', () => {
    const { privateKey } = generateKeyPairSync('x25519');
    expect(() => createEd25519Signer(privateKey)).toThrow('not an Ed25519 key');
  });
});
