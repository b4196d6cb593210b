import { createHmac, hkdfSync } from 'node:crypto';

/**
 * What a bearer secret we issue is looked up by (the guide's security rules): an HMAC under a
 * key derived from SERVER_SECRET, one key per purpose, so a database dump alone cannot test
 * guesses of licence keys, tokens or portal sessions offline (a plain SHA-256 could be), and a
 * digest of one kind never matches another kind's.
 */
export type KeyedDigestPurpose =
  | 'license-key'
  | 'api-token'
  | 'portal-session'
  | 'download-url'
  /** The token of a mailed link (choose a new password, confirm an address). */
  | 'end-user-token'
  /** The proof in an expiry reminder's stop link (a user id's digest). */
  | 'reminder-stop'
  /** A session of the KeyAuth-compatible API (its `sessionid`). */
  | 'keyauth-session'
  /** A guessed secret's failure counter (guess-throttles.ts): never a lookup's digest. */
  | 'guess-throttle';

const derivedKeys = new Map<string, Buffer>();

function keyFor(serverSecret: string, purpose: KeyedDigestPurpose): Buffer {
  const cacheKey = `${purpose}\u0000${serverSecret}`;
  let key = derivedKeys.get(cacheKey);
  if (!key) {
    const info = `latchkey keyed digest v1 ${purpose}`;
    key = Buffer.from(hkdfSync('sha256', serverSecret, Buffer.alloc(0), info, 32));
    derivedKeys.set(cacheKey, key);
  }
  return key;
}

/** Hex HMAC-SHA256 of the secret's UTF-8 bytes under the purpose's key. */
export function keyedDigest(
  secret: string,
  purpose: KeyedDigestPurpose,
  serverSecret: string,
): string {
  return createHmac('sha256', keyFor(serverSecret, purpose)).update(secret, 'utf8').digest('hex');
}
