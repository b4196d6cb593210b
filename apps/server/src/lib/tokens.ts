import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A bearer token with 256 bits of randomness, URL-safe. */
export function createRandomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/**
 * Tokens are stored as SHA-256 digests: a leaked database row cannot be replayed as a
 * session. A fast hash is right here because the input already has 256 bits of entropy.
 */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
