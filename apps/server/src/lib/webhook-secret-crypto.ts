import { createSecretSealer } from './secret-sealing.ts';

/**
 * Webhook signing secrets at rest (lib/secret-sealing.ts). The owner can reveal a secret, so it
 * is encrypted, not hashed; a leaked database alone cannot forge our signatures. The HKDF
 * label is the one secrets were first sealed under: changing it would lose them.
 */
const webhookSecretSealer = createSecretSealer('latchkey webhook secrets v1', 'webhook secret');

export const encryptWebhookSecret = webhookSecretSealer.seal;
export const decryptWebhookSecret = webhookSecretSealer.unseal;
