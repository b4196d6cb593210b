import { createHmac } from 'node:crypto';
import { constantTimeEqual } from '../../../lib/tokens.ts';
import { ShopEventMalformedError, ShopSignatureError, type ShopRequest } from './shop-event.ts';

/** A header's one value ('' when absent or repeated: a repeated signature header is refused). */
export function headerOf(request: ShopRequest, name: string): string {
  const value = request.headers[name];
  return typeof value === 'string' ? value : '';
}

/**
 * Checks a hex HMAC of `payload` against `signature` in constant time (the comparison's
 * duration does not depend on how much of a forged signature is right). Lower-case hex, as
 * every provider here sends it; anything else fails.
 */
export function assertHmacHex(
  algorithm: 'sha256' | 'sha512',
  secret: string,
  payload: Buffer | string,
  signature: string,
): void {
  const expected = createHmac(algorithm, secret).update(payload).digest('hex');
  if (!constantTimeEqual(expected, signature.trim().toLowerCase())) {
    throw new ShopSignatureError('signature does not match');
  }
}

/** The body as JSON, read only after its signature was checked. */
export function jsonBodyOf(request: ShopRequest): unknown {
  try {
    return JSON.parse(request.rawBody.toString('utf8'));
  } catch {
    throw new ShopEventMalformedError('the body is not JSON');
  }
}

/** An id the shop sends as a number or a string, as text; null when absent. */
export function idText(value: unknown): string | null {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return null;
}

/** A money amount in the minor unit: an integer as number or digits; a decimal string scaled. */
export function minorUnits(value: unknown, { isDecimal = false } = {}): number | null {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isFinite(number)) return null;
  return Math.round(isDecimal ? number * 100 : number);
}

export const upperCurrency = (value: unknown): string | null =>
  typeof value === 'string' && /^[a-z]{3}$/i.test(value) ? value.toUpperCase() : null;

/** The distinct, non-empty ids among `values`. */
export const refsOf = (...values: unknown[]): string[] => [
  ...new Set(values.map(idText).filter((value): value is string => value !== null)),
];
