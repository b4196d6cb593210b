import { availableParallelism } from 'node:os';
import { hashSync } from '@node-rs/bcrypt';
import { describe, expect, it } from 'vitest';
import { checkPasswordHash } from './password-hash-bounds.ts';
import {
  hashPassword,
  needsRehash,
  PASSWORD_HASH_PREFIX,
  passwordHashLoad,
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
      expect(checkPasswordHash(stored), prefix).toMatchObject({ kind: 'bcrypt' });
      expect(await verifyPassword(stored, 'correct horse'), prefix).toBe(true);
      expect(await verifyPassword(stored, 'correct horsE'), prefix).toBe(false);
      expect(needsRehash(stored), prefix).toBe(true);
    }
  });

  it('verifies no hash whose parameters are out of bounds: false, in the time of our own hash', async () => {
    const salt = 'c2FsdHNhbHRzYWx0c2FsdA';
    const refused = [
      // 4 TiB of memory, and a bcrypt cost of 16 (over 3 s here; 31 would be 38 hours).
      `$argon2id$v=19$m=4294967295,t=1,p=1$${salt}$${'A'.repeat(43)}`,
      hashSync('correct horse', 4).replace('$04$', '$16$'),
      // $2x$ is crypt_blowfish's bug-compatible variant: never verified, even when it would match.
      hashSync('correct horse', 4).replace(/^\$2b\$/, '$2x$'),
    ];
    const own = await hashPassword('correct horse');
    const ownStarted = performance.now();
    expect(await verifyPassword(own, 'correct horse')).toBe(true);
    const ownMs = performance.now() - ownStarted;
    const memoryBefore = process.memoryUsage().rss;
    for (const stored of refused) {
      const started = performance.now();
      expect(await verifyPassword(stored, 'correct horse'), stored.slice(0, 20)).toBe(false);
      // Generous against a noisy machine; the refused hashes alone would take seconds or hang.
      expect(performance.now() - started).toBeLessThan(Math.max(250, ownMs * 10));
    }
    expect(process.memoryUsage().rss - memoryBefore).toBeLessThan(256 * 1024 * 1024);
  });

  it('runs one hash per core at a time, of every kind; the others wait their turn', async () => {
    const cores = availableParallelism();
    const stored = await hashPassword('correct horse');
    const bcrypt = hashSync('correct horse', 4);
    expect(passwordHashLoad()).toEqual({ running: 0, waiting: 0 });
    const checks = [
      ...Array.from({ length: cores }, () => hashPassword('another horse')),
      verifyPassword(stored, 'correct horse'),
      verifyPassword(null, 'anything'),
      verifyPassword(bcrypt, 'correct horse'),
    ];
    // The dummy hash of an unknown user is made once, on first use: wait for it to queue.
    await new Promise((resolve) => setTimeout(resolve, 0));
    const load = passwordHashLoad();
    expect(load.running).toBe(cores);
    expect(load.running + load.waiting).toBeGreaterThanOrEqual(cores + 2);
    let mostRunning = 0;
    const watch = setInterval(() => {
      mostRunning = Math.max(mostRunning, passwordHashLoad().running);
    }, 1);
    const results = await Promise.all(checks);
    clearInterval(watch);
    expect(results.slice(cores)).toEqual([true, false, true]);
    expect(mostRunning).toBeLessThanOrEqual(cores);
    expect(passwordHashLoad()).toEqual({ running: 0, waiting: 0 });
  });
});
