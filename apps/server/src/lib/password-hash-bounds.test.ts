import { hashSync } from '@node-rs/bcrypt';
import { describe, expect, it } from 'vitest';
import { checkPasswordHash, FOREIGN_HASH_BOUNDS } from './password-hash-bounds.ts';

const SALT = 'c2FsdHNhbHRzYWx0c2FsdA';
const DIGEST = 'A'.repeat(43);
const argon2 = (variant: string, version: number, m: number, t: number, p: number) =>
  `$argon2${variant}$v=${version}$m=${m},t=${t},p=${p}$${SALT}$${DIGEST}`;
const bcrypt = hashSync('x', 4).slice(7);
const bcryptOf = (variant: string, cost: string) => `$${variant}$${cost}$${bcrypt}`;

describe('checkPasswordHash', () => {
  it('accepts our own hash, the common foreign defaults and every bcrypt library variant', () => {
    expect(checkPasswordHash(argon2('id', 19, 19456, 2, 1))).toEqual({
      isVerifiable: true,
      kind: 'argon2',
    });
    // PHP's PASSWORD_ARGON2ID defaults, libsodium's interactive limits, argon2i and d, v=16.
    for (const hash of [
      argon2('id', 19, 65536, 4, 1),
      argon2('id', 19, 65536, 2, 1),
      argon2('i', 19, 4096, 3, 1),
      argon2('d', 16, 19456, 2, 4),
    ]) {
      expect(checkPasswordHash(hash), hash).toMatchObject({ isVerifiable: true });
    }
    for (const variant of ['2a', '2b', '2y']) {
      for (const cost of ['04', '10', '12']) {
        expect(checkPasswordHash(bcryptOf(variant, cost))).toEqual({
          isVerifiable: true,
          kind: 'bcrypt',
        });
      }
    }
  });

  it('refuses costs a login could not afford, naming the parameter', () => {
    const refusals: [string, RegExp][] = [
      // 4 TiB of memory: one login grew a process by 300 MB a second.
      [argon2('id', 19, 4_294_967_295, 1, 1), /memory 4294967295 KiB/],
      [argon2('id', 19, FOREIGN_HASH_BOUNDS.argon2MemoryKib + 1, 1, 1), /memory/],
      [argon2('id', 19, 19456, FOREIGN_HASH_BOUNDS.argon2Passes + 1, 1), /iterations 9/],
      [argon2('id', 19, 77824, 8, 1), /memory × iterations/],
      [argon2('id', 19, 19456, 2, 255), /parallelism 255/],
      [argon2('id', 19, 4, 2, 1), /memory 4 KiB/],
      [argon2('id', 19, 19456, 0, 1), /iterations 0/],
      [argon2('id', 18, 19456, 2, 1), /version 18/],
      [bcryptOf('2b', '31'), /bcrypt cost 31, outside 4 to 12/],
      [bcryptOf('2y', '13'), /bcrypt cost 13/],
      [bcryptOf('2a', '03'), /bcrypt cost 3/],
      [bcryptOf('2x', '10'), /\$2x\$/],
    ];
    for (const [hash, reason] of refusals) {
      const check = checkPasswordHash(hash);
      expect(check.isVerifiable, hash).toBe(false);
      if (!check.isVerifiable) expect(check.reason, hash).toMatch(reason);
    }
  });

  it('refuses what is not a hash we know, including PHC extras and oversized parts', () => {
    for (const hash of [
      'not-a-hash',
      '',
      `$argon2id$v=19$m=19456,t=2,p=1,keyid=abc$${SALT}$${DIGEST}`,
      `$argon2id$v=19$m=19456,t=2,p=1$${SALT}$${'A'.repeat(5000)}`,
      `$argon2id$v=19$m=99999999999,t=2,p=1$${SALT}$${DIGEST}`,
      `$scrypt$ln=16,r=8,p=1$${SALT}$${DIGEST}`,
      bcryptOf('2b', '10').slice(0, -1),
    ]) {
      expect(checkPasswordHash(hash), hash).toMatchObject({ isVerifiable: false });
    }
  });
});
