import { keyedDigest } from '../../lib/keyed-digest.ts';
import { createSecretSealer } from '../../lib/secret-sealing.ts';

/**
 * How a licence key is kept (schema/license-keys.ts): found by a keyed digest, sealed for the
 * owner's reveal and export, and shown in lists by its shape with all but its last four
 * characters hidden. The key's text goes nowhere else: not in logs, usernames or events.
 */
const licenseKeySealer = createSecretSealer('latchkey licence keys v1', 'licence key');

export const sealLicenseKey = licenseKeySealer.seal;
export const unsealLicenseKey = licenseKeySealer.unseal;

/** What a key typed by an end user is looked up by; surrounding blanks are not part of it. */
export function licenseKeyDigest(key: string, serverSecret: string): string {
  return keyedDigest(key.trim(), 'license-key', serverSecret);
}

const VISIBLE_CHARACTERS = 4;

/** `•••••-•••••-•••••-•••••-•K2X9`: separators kept, letters and digits hidden but the last four. */
export function licenseKeyDisplay(key: string): string {
  let visible = VISIBLE_CHARACTERS;
  const characters = [...key];
  for (let index = characters.length - 1; index >= 0; index -= 1) {
    if (!/[A-Za-z0-9]/.test(characters[index]!)) continue;
    if (visible > 0) visible -= 1;
    else characters[index] = '•';
  }
  return characters.join('');
}

/** The last four letters or digits, lower-cased: what the owner's search matches a key by. */
export function licenseKeySuffix(key: string): string {
  return key
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(-VISIBLE_CHARACTERS)
    .toLowerCase();
}
