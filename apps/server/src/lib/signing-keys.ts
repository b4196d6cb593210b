import {
  createCipheriv,
  createDecipheriv,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  hkdfSync,
  randomBytes,
  sign,
  verify,
  type KeyObject,
} from 'node:crypto';

/**
 * Every application has an Ed25519 key pair; the client API signs its responses with the
 * private key so a client can tell a genuine answer from a spoofed server. The private key
 * is stored encrypted with a key derived from the server secret: a leaked database alone
 * cannot forge responses.
 */

const FORMAT_VERSION = 'v1';
const HKDF_INFO = 'latchkey signing keys v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The two columns of an application that hold its key pair. */
export interface ApplicationSigningKey {
  /** Raw 32-byte Ed25519 public key, hex. */
  signingPublicKey: string;
  /** `v1.<iv>.<tag>.<ciphertext>` (base64url): AES-256-GCM over the PKCS#8 DER private key. */
  signingPrivateKeyEncrypted: string;
}

const derivedKeys = new Map<string, Buffer>();

/** HKDF-SHA256 of the server secret; memoised because a process has one secret. */
function encryptionKeyFor(serverSecret: string): Buffer {
  let key = derivedKeys.get(serverSecret);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', serverSecret, Buffer.alloc(0), HKDF_INFO, 32));
    derivedKeys.set(serverSecret, key);
  }
  return key;
}

/** A fresh key pair for a new application, private half already encrypted. */
export function generateSigningKeyPair(serverSecret: string): ApplicationSigningKey {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const signingPublicKey = publicKeyToHex(publicKey);
  return {
    signingPublicKey,
    signingPrivateKeyEncrypted: encryptSigningKey(privateKey, signingPublicKey, serverSecret),
  };
}

/**
 * The public key is the additional authenticated data: a ciphertext moved to another
 * application's row fails to decrypt instead of signing for the wrong public key.
 */
export function encryptSigningKey(
  privateKey: KeyObject,
  signingPublicKey: string,
  serverSecret: string,
): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', encryptionKeyFor(serverSecret), iv);
  cipher.setAAD(Buffer.from(signingPublicKey, 'utf8'));
  const der = privateKey.export({ format: 'der', type: 'pkcs8' });
  const ciphertext = Buffer.concat([cipher.update(der), cipher.final()]);
  return [FORMAT_VERSION, iv, cipher.getAuthTag(), ciphertext]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

export class SigningKeyError extends Error {
  override readonly name = 'SigningKeyError';
}

/**
 * Decrypts an application's private key. Throws SigningKeyError if the blob is malformed,
 * was tampered with, belongs to another public key, or the server secret is not the one
 * it was encrypted under. Callers on a hot path should cache the KeyObject.
 */
export function decryptSigningKey(key: ApplicationSigningKey, serverSecret: string): KeyObject {
  const parts = key.signingPrivateKeyEncrypted.split('.');
  const [version, iv, tag, ciphertext] = parts.map((part, index) =>
    index === 0 ? Buffer.from(part, 'utf8') : Buffer.from(part, 'base64url'),
  );
  if (
    parts.length !== 4 ||
    version?.toString('utf8') !== FORMAT_VERSION ||
    iv?.length !== IV_BYTES ||
    tag?.length !== TAG_BYTES ||
    !ciphertext?.length
  ) {
    throw new SigningKeyError('Malformed encrypted signing key');
  }
  let der: Buffer;
  try {
    const decipher = createDecipheriv('aes-256-gcm', encryptionKeyFor(serverSecret), iv);
    decipher.setAAD(Buffer.from(key.signingPublicKey, 'utf8'));
    decipher.setAuthTag(tag);
    der = Buffer.concat([decipher.update(ciphertext), decipher.final()]);
  } catch {
    throw new SigningKeyError('Signing key cannot be decrypted (tampered or wrong server secret)');
  }
  const privateKey = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
  if (privateKey.asymmetricKeyType !== 'ed25519') {
    throw new SigningKeyError('Signing key is not an Ed25519 key');
  }
  return privateKey;
}

/** An Ed25519 signature (64 bytes) over the exact bytes of a message. */
export function signWithApplicationKey(
  privateKey: KeyObject,
  message: string | Uint8Array,
): Buffer {
  return sign(
    null,
    typeof message === 'string' ? Buffer.from(message, 'utf8') : message,
    privateKey,
  );
}

/** What a client does with the application's published public key. */
export function verifyApplicationSignature(
  signingPublicKey: string,
  message: string | Uint8Array,
  signature: Uint8Array,
): boolean {
  const publicKey = createPublicKey({
    key: {
      kty: 'OKP',
      crv: 'Ed25519',
      x: Buffer.from(signingPublicKey, 'hex').toString('base64url'),
    },
    format: 'jwk',
  });
  return verify(
    null,
    typeof message === 'string' ? Buffer.from(message, 'utf8') : message,
    publicKey,
    signature,
  );
}

function publicKeyToHex(publicKey: KeyObject): string {
  const { x } = publicKey.export({ format: 'jwk' });
  if (!x) throw new Error('Ed25519 public key without x');
  return Buffer.from(x, 'base64url').toString('hex');
}
