import { randomBytes } from 'node:crypto';

/** The Standard Webhooks prefix: what follows it is the base64 HMAC key. */
export const STANDARD_SECRET_PREFIX = 'whsec_';
const GENERATED_SECRET_BYTES = 24;
const HINT_CHARACTERS = 4;
const MASK = '••••';

/** A new signing secret in the Standard Webhooks form, `whsec_<base64 of 24 random bytes>`. */
export function generateWebhookSecret(): string {
  return `${STANDARD_SECRET_PREFIX}${randomBytes(GENERATED_SECRET_BYTES).toString('base64')}`;
}

const STANDARD_KEY_BYTES = { min: 24, max: 64 } as const;
export const STANDARD_SECRET_MALFORMED = `A secret starting with ${STANDARD_SECRET_PREFIX} must continue with the base64 of ${STANDARD_KEY_BYTES.min} to ${STANDARD_KEY_BYTES.max} bytes`;

/**
 * A secret in the Standard Webhooks form is a base64 key: receivers' libraries decode it and
 * refuse a malformed one, so it is refused here rather than at every delivery.
 */
export function isStandardSecretMalformed(secret: string): boolean {
  if (!secret.startsWith(STANDARD_SECRET_PREFIX)) return false;
  const key = secret.slice(STANDARD_SECRET_PREFIX.length);
  if (key.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(key)) return true;
  const bytes = Buffer.from(key, 'base64').length;
  return bytes < STANDARD_KEY_BYTES.min || bytes > STANDARD_KEY_BYTES.max;
}

/**
 * What the masked form may show: the `whsec_` prefix if any, and the last characters, but
 * never more than a quarter of the rest, so a short custom secret is not half given away.
 */
export function secretHintOf(secret: string): string {
  const isStandard = secret.startsWith(STANDARD_SECRET_PREFIX);
  const key = isStandard ? secret.slice(STANDARD_SECRET_PREFIX.length) : secret;
  const visible = Math.min(HINT_CHARACTERS, Math.floor(key.length / 4));
  const tail = visible > 0 ? key.slice(-visible) : '';
  return `${isStandard ? STANDARD_SECRET_PREFIX : ''}${tail}`;
}

/** The secret as every response but the reveal call shows it: `whsec_••••abcd`, `••••abcd`. */
export function maskWebhookSecret(secretHint: string): string {
  return secretHint.startsWith(STANDARD_SECRET_PREFIX)
    ? `${STANDARD_SECRET_PREFIX}${MASK}${secretHint.slice(STANDARD_SECRET_PREFIX.length)}`
    : `${MASK}${secretHint}`;
}
