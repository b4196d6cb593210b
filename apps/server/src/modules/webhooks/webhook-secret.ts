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
