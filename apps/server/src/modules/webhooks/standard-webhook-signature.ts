import { createHmac } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/**
 * The HMAC key of a Standard Webhooks secret: the base64 part after `whsec_` (as the
 * specification's libraries read it), else the secret's UTF-8 bytes, so a vendor's own
 * plain secret works with a plain HMAC on their side.
 */
export function webhookSigningKey(secret: string): Buffer {
  return secret.startsWith(SECRET_PREFIX)
    ? Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64')
    : Buffer.from(secret, 'utf8');
}

/**
 * The `webhook-signature` header of the Standard Webhooks specification:
 * `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`, timestamp in unix seconds.
 */
export function signStandardWebhook(input: {
  id: string;
  timestampSeconds: number;
  body: string;
  secret: string;
}): string {
  const signature = createHmac('sha256', webhookSigningKey(input.secret))
    .update(`${input.id}.${input.timestampSeconds}.${input.body}`, 'utf8')
    .digest('base64');
  return `v1,${signature}`;
}
