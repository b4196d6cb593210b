import {
  CLIENT_NONCE_MAX_LENGTH,
  CLIENT_NONCE_PATTERN,
  clientApiHeaders,
} from '@latchkey/contracts';

export const NONCE_PROBLEM = `${clientApiHeaders.nonce} must be at most ${CLIENT_NONCE_MAX_LENGTH} visible ASCII characters`;

/**
 * The X-Request-Nonce a response signature binds: the header's text, '' when it is absent, or
 * null when it is not at most CLIENT_NONCE_MAX_LENGTH visible ASCII characters (a 400, signed
 * with no nonce).
 */
export function nonceOf(header: string | string[] | undefined): string | null {
  if (header === undefined) return '';
  return typeof header === 'string' &&
    header.length <= CLIENT_NONCE_MAX_LENGTH &&
    CLIENT_NONCE_PATTERN.test(header)
    ? header
    : null;
}
