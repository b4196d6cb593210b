import { createPrivateKey, createPublicKey, hkdfSync, type KeyObject } from 'node:crypto';

/**
 * The key that signs /api/v1 answers when no application key is known (a missing or unknown
 * X-API-Key, GET /api/v1/public-key). Derived from the server secret with HKDF, so every
 * instance of a deployment signs with the same key and nothing extra needs storing; a
 * different HKDF label from the signing-key encryption keeps the two keys unrelated.
 */
const HKDF_INFO = 'latchkey server response signing v1';

/** PKCS#8 DER header of an Ed25519 private key; the 32-byte seed follows it. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export interface ServerSigningKey {
  privateKey: KeyObject;
  /** Raw 32-byte Ed25519 public key, hex (what GET /api/v1/public-key publishes). */
  publicKeyHex: string;
}

export function deriveServerSigningKey(serverSecret: string): ServerSigningKey {
  const seed = Buffer.from(hkdfSync('sha256', serverSecret, Buffer.alloc(0), HKDF_INFO, 32));
  const privateKey = createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  const { x } = createPublicKey(privateKey).export({ format: 'jwk' });
  if (!x) throw new Error('Ed25519 public key without x');
  return { privateKey, publicKeyHex: Buffer.from(x, 'base64url').toString('hex') };
}
