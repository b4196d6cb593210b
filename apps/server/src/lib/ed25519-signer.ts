import { createRequire } from 'node:module';
import { sign, type KeyObject } from 'node:crypto';
import type * as SodiumNative from 'sodium-native';

/** Signs a message with one Ed25519 key; the same 64-byte signature whichever library runs. */
export type Ed25519Signer = (message: string | Buffer) => Buffer;

type Sodium = typeof SodiumNative;

/**
 * libsodium (sodium-native, prebuilt for every major platform, no install step) signs in
 * about half the time of node:crypto here: OpenSSL 3 sets up a fresh context and fetches the
 * algorithm from its provider on every one-shot call. Ed25519 is deterministic, so both give
 * identical bytes; node:crypto is the fallback where the native module cannot load.
 */
const sodium: Sodium | null = (() => {
  try {
    return createRequire(import.meta.url)('sodium-native') as Sodium;
  } catch {
    return null;
  }
})();

export const ed25519Implementation: 'libsodium' | 'node:crypto' = sodium
  ? 'libsodium'
  : 'node:crypto';

export function createEd25519Signer(
  privateKey: KeyObject,
  implementation: 'libsodium' | 'node:crypto' = ed25519Implementation,
): Ed25519Signer {
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error('not an Ed25519 key');
  if (implementation === 'node:crypto' || !sodium) {
    return (message) =>
      sign(null, typeof message === 'string' ? Buffer.from(message) : message, privateKey);
  }
  const seed = Buffer.from(privateKey.export({ format: 'jwk' }).d!, 'base64url');
  const publicKey = Buffer.alloc(sodium.crypto_sign_PUBLICKEYBYTES);
  const secretKey = Buffer.alloc(sodium.crypto_sign_SECRETKEYBYTES);
  sodium.crypto_sign_seed_keypair(publicKey, secretKey, seed);
  seed.fill(0);
  return (message) => {
    const signature = Buffer.alloc(sodium.crypto_sign_BYTES);
    sodium.crypto_sign_detached(
      signature,
      typeof message === 'string' ? Buffer.from(message) : message,
      secretKey,
    );
    return signature;
  };
}
