import { timingSafeEqual } from 'node:crypto';
import { keyedDigest } from '../../lib/keyed-digest.ts';

/**
 * The token of a download URL (issue 25): `<file id>.<expiry, unix seconds>.<HMAC>`, stateless
 * (any instance checks it, nothing is stored) and good for one file until it expires. The MAC
 * is the keyed digest of the download-url purpose (a key derived from SERVER_SECRET for this
 * use alone) over a label naming this use, so no other digest or signature we make can pass
 * for one. It is a bearer secret: never logged (see request-log-serializer.ts).
 */
const DOMAIN = 'latchkey-download-v1';
const TOKEN_PATTERN =
  /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

/** base64url, so the token fits the router's 100-character limit on a path segment. */
const macOf = (fileId: string, expiresAtSeconds: number, serverSecret: string) =>
  Buffer.from(
    keyedDigest(`${DOMAIN}.${fileId}.${expiresAtSeconds}`, 'download-url', serverSecret),
    'hex',
  ).toString('base64url');

export function createDownloadToken(input: {
  fileId: string;
  expiresAt: Date;
  serverSecret: string;
}): string {
  const expiresAtSeconds = Math.floor(input.expiresAt.getTime() / 1000);
  return `${input.fileId}.${expiresAtSeconds}.${macOf(input.fileId, expiresAtSeconds, input.serverSecret)}`;
}

/** The file a token grants, or null when it is malformed, tampered with or expired. */
export function readDownloadToken(input: {
  token: string;
  now: Date;
  serverSecret: string;
}): { fileId: string } | null {
  const match = TOKEN_PATTERN.exec(input.token);
  if (!match) return null;
  const [, fileId, expiresText, mac] = match as unknown as [string, string, string, string];
  const expiresAtSeconds = Number(expiresText);
  const expected = Buffer.from(macOf(fileId, expiresAtSeconds, input.serverSecret));
  // Constant time: the comparison must not tell how much of a forged MAC was right.
  if (!timingSafeEqual(expected, Buffer.from(mac))) return null;
  if (expiresAtSeconds * 1000 <= input.now.getTime()) return null;
  return { fileId };
}
