import { createSecretSealer } from '../../lib/secret-sealing.ts';

/**
 * What a queued message carries that may not be stored in clear (a reset link's token, a
 * licence key), sealed as webhook secrets are, under a key of its own. Dropped once delivered.
 */
const mailSecretSealer = createSecretSealer('latchkey mail secrets v1', 'mail secret');

/** The secret values a template may show: `{ token }` or `{ key }`. */
export type MailSecrets = Record<string, string>;

export const sealMailSecrets = (secrets: MailSecrets, serverSecret: string): string =>
  mailSecretSealer.seal(JSON.stringify(secrets), serverSecret);

export const unsealMailSecrets = (sealed: string, serverSecret: string): MailSecrets =>
  JSON.parse(mailSecretSealer.unseal(sealed, serverSecret)) as MailSecrets;
