import { createSecretSealer } from '../../lib/secret-sealing.ts';
import { createRandomToken } from '../../lib/tokens.ts';

/**
 * A connection's secrets at rest: the shop's signing secret, Gumroad's URL token and an
 * optional API key of the shop. Sealed (AES-256-GCM under a key derived from the server
 * secret), not hashed: the server must read them to verify each event, and the URL with its
 * token is shown to the owner again.
 */
const shopSecretSealer = createSecretSealer('latchkey shop secrets v1', 'shop secret');

export const sealShopSecret = shopSecretSealer.seal;
export const unsealShopSecret = shopSecretSealer.unseal;

/** The id in a connection's URL: 128 random bits, URL-safe. */
export const newShopPublicId = () => createRandomToken(16);

/** Gumroad's URL token, and a Lemon Squeezy signing secret when the owner brings none. */
export const newShopToken = () => createRandomToken(32);

/** The last four characters: enough to tell secrets apart, nothing to sign with. */
export const shopSecretHintOf = (secret: string) =>
  secret.length >= 16 ? `\u2026${secret.slice(-4)}` : '\u2026';
