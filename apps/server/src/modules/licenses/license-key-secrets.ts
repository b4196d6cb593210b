import { keyedDigest } from '../../lib/keyed-digest.ts';
import { createSecretSealer } from '../../lib/secret-sealing.ts';
import { LICENSE_KEY_SUFFIX_LENGTH, licenseKeyCharacters } from './license-key-prefix.ts';

/**
 * How a licence key is kept (schema/license-keys.ts): found by a keyed digest, sealed for the
 * owner's reveal and export, and shown in lists by its shape with all but its first characters
 * (when its format can spare them) and its last four hidden. The key's text goes nowhere else:
 * not in logs, usernames or events.
 */
const licenseKeySealer = createSecretSealer('latchkey licence keys v1', 'licence key');

export const sealLicenseKey = licenseKeySealer.seal;
export const unsealLicenseKey = licenseKeySealer.unseal;

/** What a key typed by an end user is looked up by; surrounding blanks are not part of it. */
export function licenseKeyDigest(key: string, serverSecret: string): string {
  return keyedDigest(key.trim(), 'license-key', serverSecret);
}

/**
 * `ABCDE-•••••-•••••-•••••-•K2X9`: separators kept, letters and digits hidden but the first
 * `prefixLength` (as many as the key's format can spare: license-key-prefix.ts) and the last
 * four. Without a prefix length only the last four show: `•••••-•••••-•••••-•••••-•K2X9`.
 */
export function licenseKeyDisplay(key: string, prefixLength = 0): string {
  const suffixStart = licenseKeyCharacters(key).length - LICENSE_KEY_SUFFIX_LENGTH;
  let position = 0;
  return [...key]
    .map((character) => {
      if (!/[A-Za-z0-9]/.test(character)) return character;
      const isVisible = position < prefixLength || position >= suffixStart;
      position += 1;
      return isVisible ? character : '•';
    })
    .join('');
}

/** The last four letters or digits, lower-cased: what the owner's search matches a key by. */
export function licenseKeySuffix(key: string): string {
  return key
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(-LICENSE_KEY_SUFFIX_LENGTH)
    .toLowerCase();
}
