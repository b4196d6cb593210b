/*
 * Sentences the management routes' descriptions share, so the OpenAPI document says each the
 * same way wherever it applies.
 */

/** Appended to a write's description: how a retry avoids doing the work twice. */
export const idempotent =
  ' Send an `Idempotency-Key` header to retry safely: the same key and body within 24 hours answers the first answer without doing the work again.';

/** The description of every blacklist and webhook route: why a restricted token is refused. */
export const accountWide =
  'A token restricted to some applications is refused (403): the blacklist and webhooks belong to the whole account.';
