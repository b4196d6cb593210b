import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import type { SignatureErrorReason } from './client-errors.js';

const HEX_PUBLIC_KEY = /^[0-9a-fA-F]{64}$/;
const HEX_SIGNATURE = /^[0-9a-fA-F]{128}$/;
const UNIX_SECONDS = /^\d{1,15}$/;

/** How far an answer's signing time may be from this machine's clock (the server's advice). */
export const DEFAULT_MAX_CLOCK_SKEW_SECONDS = 300;

/** The Ed25519 key of a 64-hex public key; throws on anything else (a programming error). */
export function publicKeyFromHex(publicKeyHex: string): KeyObject {
  if (typeof publicKeyHex !== 'string' || !HEX_PUBLIC_KEY.test(publicKeyHex)) {
    throw new TypeError('publicKey must be the application’s Ed25519 public key: 64 hex digits');
  }
  return createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(publicKeyHex, 'hex').toString('base64url') },
    format: 'jwk',
  });
}

export interface SignedAnswer {
  /** The application's public key (64 hex digits), or its key object. */
  publicKey: string | KeyObject;
  /** `X-Signature-Timestamp` as received (null when absent). */
  timestamp: string | null | undefined;
  /** `X-Signature-Ed25519` as received (null when absent). */
  signature: string | null | undefined;
  /** The `X-Request-Nonce` this request sent ('' for none). */
  nonce: string;
  /** The body's bytes exactly as received. */
  body: Uint8Array | string;
  /** This machine's clock, unix seconds. */
  nowSeconds?: number;
  maxClockSkewSeconds?: number;
}

/**
 * Why an answer is not to be believed, or null when it is genuine: its Ed25519 signature
 * covers `{timestamp}.{nonce}.{body}` under the pinned key (the nonce binds it to this request,
 * so an answer recorded earlier cannot be replayed), and it was signed within
 * `maxClockSkewSeconds` of this machine's clock. The signature is checked first, so `stale`
 * only ever describes a genuine answer.
 */
export function checkAnswerSignature(answer: SignedAnswer): SignatureErrorReason | null {
  const { timestamp, signature, nonce } = answer;
  if (typeof timestamp !== 'string' || !UNIX_SECONDS.test(timestamp)) return 'unsigned';
  if (typeof signature !== 'string' || !HEX_SIGNATURE.test(signature)) return 'unsigned';
  const key =
    typeof answer.publicKey === 'string' ? publicKeyFromHex(answer.publicKey) : answer.publicKey;
  const body = typeof answer.body === 'string' ? Buffer.from(answer.body, 'utf8') : answer.body;
  const signatureBytes = Buffer.from(signature, 'hex');
  const holdsFor = (signedNonce: string) =>
    verify(
      null,
      Buffer.concat([Buffer.from(`${timestamp}.${signedNonce}.`, 'utf8'), body]),
      key,
      signatureBytes,
    );
  if (!holdsFor(nonce)) {
    // Only to say why: an answer signed for no nonce is refused all the same.
    return nonce !== '' && holdsFor('') ? 'nonce' : 'signature';
  }
  const nowSeconds = answer.nowSeconds ?? Date.now() / 1000;
  const maxSkew = answer.maxClockSkewSeconds ?? DEFAULT_MAX_CLOCK_SKEW_SECONDS;
  if (Math.abs(nowSeconds - Number(timestamp)) > maxSkew) return 'stale';
  return null;
}
