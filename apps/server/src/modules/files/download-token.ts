import { timingSafeEqual } from 'node:crypto';
import { keyedDigest } from '../../lib/keyed-digest.ts';

/**
 * The token of a download URL, stateless (any instance checks it, nothing is stored)
 * and good for one file until it expires:
 * - `<file id>.<expiry, unix seconds>.<HMAC>` for a file that needs no session;
 * - `<file id>.<expiry>.<end user id>.<HMAC>` for one issued to a live session's holder, so the
 *   download can check that user's standing when it is used: a user paused, expired or deleted
 *   since loses the URL at once, not when it expires.
 * The MAC is the keyed digest of the download-url purpose (a key derived from SERVER_SECRET for
 * this use alone) over a label naming this use and the token's other parts, so no other digest
 * or signature we make can pass for one, and one form cannot pass for the other. It is a bearer
 * secret: never logged (see request-log-serializer.ts).
 */
const DOMAIN = 'latchkey-download-v1';
const HOLDER_DOMAIN = 'latchkey-download-v2';
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const TOKEN_PATTERN = new RegExp(`^(${UUID})\\.(\\d{1,12})\\.([A-Za-z0-9_-]{43})$`);
const HOLDER_TOKEN_PATTERN = new RegExp(
  `^(${UUID})\\.(\\d{1,12})\\.([A-Za-z0-9_-]{22})\\.([A-Za-z0-9_-]{22})$`,
);
/**
 * A holder's token carries the user id in 22 characters (its 16 bytes) and a MAC cut to 128
 * bits, so it fits the router's 100-character limit on a path segment (93 characters); 2^128
 * MACs are as far beyond guessing as 2^256, and every refused guess is throttled.
 */
const HOLDER_MAC_BYTES = 16;

/** base64url, so the token fits the router's 100-character limit on a path segment. */
const macOf = (fileId: string, expiresAtSeconds: number, serverSecret: string) =>
  Buffer.from(
    keyedDigest(`${DOMAIN}.${fileId}.${expiresAtSeconds}`, 'download-url', serverSecret),
    'hex',
  ).toString('base64url');

const holderMacOf = (
  fileId: string,
  expiresAtSeconds: number,
  holder: string,
  serverSecret: string,
) =>
  Buffer.from(
    keyedDigest(
      `${HOLDER_DOMAIN}.${fileId}.${expiresAtSeconds}.${holder}`,
      'download-url',
      serverSecret,
    ),
    'hex',
  )
    .subarray(0, HOLDER_MAC_BYTES)
    .toString('base64url');

const compactUuid = (uuid: string) =>
  Buffer.from(uuid.replaceAll('-', ''), 'hex').toString('base64url');

function uuidOf(compact: string): string {
  const hex = Buffer.from(compact, 'base64url').toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Constant time: the comparison must not tell how much of a forged MAC was right. */
const isSameMac = (expected: string, given: string) =>
  timingSafeEqual(Buffer.from(expected), Buffer.from(given));

export function createDownloadToken(input: {
  fileId: string;
  expiresAt: Date;
  serverSecret: string;
  /** The end user whose live session asked for it; null for a file that needs no session. */
  userId: string | null;
}): string {
  const expiresAtSeconds = Math.floor(input.expiresAt.getTime() / 1000);
  if (input.userId === null) {
    return `${input.fileId}.${expiresAtSeconds}.${macOf(input.fileId, expiresAtSeconds, input.serverSecret)}`;
  }
  const holder = compactUuid(input.userId.toLowerCase());
  const mac = holderMacOf(input.fileId, expiresAtSeconds, holder, input.serverSecret);
  return `${input.fileId}.${expiresAtSeconds}.${holder}.${mac}`;
}

/**
 * The file a token grants and the end user it was issued to (null: none), or null when it is
 * malformed, tampered with or expired.
 */
export function readDownloadToken(input: {
  token: string;
  now: Date;
  serverSecret: string;
}): { fileId: string; userId: string | null } | null {
  let granted: { fileId: string; userId: string | null; expiresAtSeconds: number } | null = null;
  const plain = TOKEN_PATTERN.exec(input.token);
  if (plain) {
    const [, fileId, expiresText, mac] = plain as unknown as [string, string, string, string];
    const expiresAtSeconds = Number(expiresText);
    if (isSameMac(macOf(fileId, expiresAtSeconds, input.serverSecret), mac)) {
      granted = { fileId, userId: null, expiresAtSeconds };
    }
  }
  const bound = HOLDER_TOKEN_PATTERN.exec(input.token);
  if (bound) {
    const [, fileId, expiresText, holder, mac] = bound as unknown as [
      string,
      string,
      string,
      string,
      string,
    ];
    const expiresAtSeconds = Number(expiresText);
    if (isSameMac(holderMacOf(fileId, expiresAtSeconds, holder, input.serverSecret), mac)) {
      granted = { fileId, userId: uuidOf(holder), expiresAtSeconds };
    }
  }
  if (!granted || granted.expiresAtSeconds * 1000 <= input.now.getTime()) return null;
  return { fileId: granted.fileId, userId: granted.userId };
}
