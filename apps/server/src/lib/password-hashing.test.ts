import { hashSync } from '@node-rs/bcrypt';
import { describe, expect, it } from 'vitest';
import {
  hashPassword,
  isBcryptHash,
  needsRehash,
  PASSWORD_HASH_PREFIX,
  verifyPassword,
} from './password-hashing.ts';

describe('password hashing', () => {
  it('makes salted argon2id hashes with the OWASP parameters', async () => {
    const first = await hashPassword('correct horse');
    const second = await hashPassword('correct horse');
    expect(first.startsWith(PASSWORD_HASH_PREFIX)).toBe(true);
    expect(PASSWORD_HASH_PREFIX).toBe('$argon2id$v=19$m=19456,t=2,p=1$');
    expect(first).not.toBe(second);
    expect(first).not.toContain('correct horse');
    expect(needsRehash(first)).toBe(false);
  });

  it('verifies the right password only, keeping spaces significant', async () => {
    const stored = await hashPassword(' pass word ');
    expect(await verifyPassword(stored, ' pass word ')).toBe(true);
    expect(await verifyPassword(stored, 'pass word')).toBe(false);
    expect(await verifyPassword(stored, '')).toBe(false);
  });

  it('answers false for an unknown user or a corrupt hash instead of throwing', async () => {
    expect(await verifyPassword(null, 'anything')).toBe(false);
    expect(await verifyPassword('not-a-hash', 'anything')).toBe(false);
    expect(needsRehash('not-a-hash')).toBe(true);
    expect(needsRehash('$argon2id$v=19$m=4096,t=3,p=1$c2FsdHNhbHRzYWx0$' + 'A'.repeat(43))).toBe(
      true,
    );
  });

  it('verifies bcrypt hashes of every prefix (imported from KeyAuth) and marks them for rehashing', async () => {
    const bcrypt = hashSync('correct horse', 4);
    for (const prefix of ['$2a$', '$2b$', '$2y$']) {
      const stored = bcrypt.replace(/^\$2b\$/, prefix);
      expect(isBcryptHash(stored), prefix).toBe(true);
      expect(await verifyPassword(stored, 'correct horse'), prefix).toBe(true);
      expect(await verifyPassword(stored, 'correct horsE'), prefix).toBe(false);
      expect(needsRehash(stored), prefix).toBe(true);
    }
    expect(isBcryptHash(await hashPassword('x'))).toBe(false);
    expect(isBcryptHash('$2x$04$' + 'a'.repeat(53))).toBe(false);
    expect(isBcryptHash(bcrypt.slice(0, -1))).toBe(false);
  });
});
