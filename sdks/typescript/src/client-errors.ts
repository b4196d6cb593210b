/**
 * Why an answer was refused before anything read it:
 * - `unsigned`: the signature headers are missing or malformed;
 * - `signature`: the Ed25519 signature does not hold for the pinned key, this request's nonce
 *   and the bytes received (a changed body, another key, a replayed answer);
 * - `nonce`: the answer is signed for a request that carried no nonce, so this request's
 *   nonce never reached the server (something in between removed it);
 * - `stale`: genuinely signed, but at a time too far from this machine's clock;
 * - `digest`: downloaded bytes whose size or SHA-256 is not what the signed answer said.
 */
export const signatureErrorReasons = ['unsigned', 'signature', 'nonce', 'stale', 'digest'] as const;
export type SignatureErrorReason = (typeof signatureErrorReasons)[number];

/** An answer (or a download) that did not prove it comes from the application: never trusted. */
export class SignatureError extends Error {
  override readonly name = 'SignatureError';
  constructor(
    readonly reason: SignatureErrorReason,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Why no usable answer came:
 * - `unreachable`: no HTTP answer at all (refused, DNS, reset, proxy refused);
 * - `timeout`: none within `timeoutMs`;
 * - `server-error`: a 5xx, a server fault rather than an answer (the database away a moment);
 * - `malformed`: an answer that is not the client API's JSON, or too large.
 */
export const transportErrorReasons = [
  'unreachable',
  'timeout',
  'server-error',
  'malformed',
] as const;
export type TransportErrorReason = (typeof transportErrorReasons)[number];

/** The network or the server failed: the outcome is unknown, not a refusal. */
export class TransportError extends Error {
  override readonly name = 'TransportError';
  constructor(
    readonly reason: TransportErrorReason,
    message: string,
    /** The HTTP status, when an answer came. */
    readonly status: number | null = null,
    /** Seconds the server asked to wait (a 503's `Retry-After`), when it did. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
  }
}
