import { randomBytes } from 'node:crypto';

/**
 * A session token in the client samples' own format, `sess_<32 hex>_<unix seconds>`, with
 * 128 random bits: a client can use it for session/track start instead of making one up.
 * Only its SHA-256 is ever stored (when a session starts with it).
 */
export function issueSessionToken(now: Date): string {
  return `sess_${randomBytes(16).toString('hex')}_${Math.floor(now.getTime() / 1000)}`;
}
