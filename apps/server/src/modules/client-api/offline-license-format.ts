import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { offlineLicenseFormat, type OfflineLicenseContent } from '@latchkey/contracts';
import type { Ed25519Signer } from '../../lib/ed25519-signer.ts';

/**
 * The offline licence string (docs/client-api.md is the contract every language
 * verifies against): `LK1.<payload>.<signature>`, `<payload>` the base64url (no padding) of the
 * UTF-8 JSON content and `<signature>` the base64url Ed25519 signature over the ASCII bytes
 * `latchkey-license-v1.` followed by `<payload>` as it stands in the string. Encrypted:
 * `LK1E.<payload>.<signature>`, `<payload>` the base64url of IV ‖ ciphertext ‖ tag under
 * AES-256-GCM with the key HKDF-SHA256(HWID, salt = the application's raw public key, info
 * `latchkey-license-v1e`), signed over `latchkey-license-v1e.` and that segment (encrypt,
 * then sign: anyone can check the signature without the HWID).
 *
 * Why the domain prefix: the same application key signs every client-API answer, over
 * `{timestamp}.{nonce}.{body}`. A licence's signed message starts with a letter and holds exactly
 * one dot (base64url has none); an answer's starts with the digits of a timestamp and holds at
 * least two. Neither can ever be presented as the other.
 */

/** The AES-256-GCM key of an encrypted licence: bound to the machine and the application. */
export function offlineLicenseKey(hwid: string, signingPublicKeyHex: string): Buffer {
  return Buffer.from(
    hkdfSync(
      'sha256',
      Buffer.from(hwid, 'utf8'),
      Buffer.from(signingPublicKeyHex, 'hex'),
      offlineLicenseFormat.encryptedSigningDomain,
      32,
    ),
  );
}

/** The bytes a licence's signature covers: its domain, a dot, the payload segment. */
export function offlineLicenseSignedMessage(isEncrypted: boolean, payloadSegment: string): Buffer {
  const domain = isEncrypted
    ? offlineLicenseFormat.encryptedSigningDomain
    : offlineLicenseFormat.plainSigningDomain;
  return Buffer.from(`${domain}.${payloadSegment}`, 'ascii');
}

/**
 * The licence string for `content`, signed with the application's key; encrypted first when
 * `encryptTo` names the HWID (and the application's public key, the HKDF salt).
 */
export function encodeOfflineLicense(
  content: OfflineLicenseContent,
  sign: Ed25519Signer,
  encryptTo: { hwid: string; signingPublicKeyHex: string } | null,
): string {
  const json = Buffer.from(JSON.stringify(content), 'utf8');
  let payload: Buffer;
  if (encryptTo) {
    const iv = randomBytes(offlineLicenseFormat.ivBytes);
    const cipher = createCipheriv(
      'aes-256-gcm',
      offlineLicenseKey(encryptTo.hwid, encryptTo.signingPublicKeyHex),
      iv,
    );
    payload = Buffer.concat([iv, cipher.update(json), cipher.final(), cipher.getAuthTag()]);
  } else {
    payload = json;
  }
  const isEncrypted = encryptTo !== null;
  const payloadSegment = payload.toString('base64url');
  const signature = sign(offlineLicenseSignedMessage(isEncrypted, payloadSegment));
  const prefix = isEncrypted
    ? offlineLicenseFormat.encryptedPrefix
    : offlineLicenseFormat.plainPrefix;
  return `${prefix}.${payloadSegment}.${signature.toString('base64url')}`;
}

/**
 * The plaintext of an encrypted payload segment; throws when the key (the HWID) is wrong or the
 * bytes were changed. The server never needs it: tests and the TypeScript side use it.
 */
export function decryptOfflineLicensePayload(
  payloadSegment: string,
  hwid: string,
  signingPublicKeyHex: string,
): Buffer {
  const bytes = Buffer.from(payloadSegment, 'base64url');
  const { ivBytes, tagBytes } = offlineLicenseFormat;
  if (bytes.length < ivBytes + tagBytes) throw new Error('encrypted licence payload too short');
  const decipher = createDecipheriv(
    'aes-256-gcm',
    offlineLicenseKey(hwid, signingPublicKeyHex),
    bytes.subarray(0, ivBytes),
  );
  decipher.setAuthTag(bytes.subarray(bytes.length - tagBytes));
  return Buffer.concat([
    decipher.update(bytes.subarray(ivBytes, bytes.length - tagBytes)),
    decipher.final(),
  ]);
}
