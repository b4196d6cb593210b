import { randomBytes } from 'node:crypto';
import { API_KEY_PREFIX } from '@latchkey/contracts';

export { API_KEY_PREFIX };

/** 32 random bytes (256 bits) as base64url: always 43 characters. */
export const API_KEY_PATTERN = /^lk_live_[A-Za-z0-9_-]{43}$/;

/** A new application API key: the prefix plus 256 bits from the CSPRNG. */
export function createApiKey(): string {
  return `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** A cheap shape check before any database lookup (the client API's first gate). */
export function isWellFormedApiKey(value: unknown): value is string {
  return typeof value === 'string' && API_KEY_PATTERN.test(value);
}
