import { randomInt } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { API_TOKEN_PATTERN, apiTokenLimits } from '@latchkey/contracts';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;

/**
 * A management API token: `lk_`, 32 random base62 characters (about 190 bits) and
 * a 6-character base62 CRC-32 of everything before it. The checksum lets secret scanners
 * recognise a real token without asking us, and lets the server refuse a mistyped one
 * without a database lookup. It proves nothing: the keyed digest lookup does.
 */
export function generateApiToken(): string {
  let random = '';
  for (let i = 0; i < RANDOM_LENGTH; i += 1) random += BASE62[randomInt(BASE62.length)];
  const body = `lk_${random}`;
  return body + checksumOf(body);
}

/** True for text shaped like a token whose checksum matches. */
export function isWellFormedApiToken(text: string): boolean {
  if (!API_TOKEN_PATTERN.test(text)) return false;
  const body = text.slice(0, -CHECKSUM_LENGTH);
  return checksumOf(body) === text.slice(-CHECKSUM_LENGTH);
}

/** What the console shows of a token: enough to tell tokens apart, too little to use one. */
export function apiTokenPrefix(token: string): string {
  return token.slice(0, apiTokenLimits.prefixLength);
}

function checksumOf(body: string): string {
  let value = crc32(body);
  let text = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i += 1) {
    text = BASE62[value % 62] + text;
    value = Math.floor(value / 62);
  }
  return text;
}
