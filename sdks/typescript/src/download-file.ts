import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import type { ClientRequest } from 'node:http';
import { basename, dirname, join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { SignatureError, TransportError } from './client-errors.js';
import { openHttpRequest } from './http-transport.js';

export interface DownloadTarget {
  url: URL;
  destination: string;
  /** The size and SHA-256 the signed answer gave: the bytes must be exactly these. */
  size: number;
  sha256: string;
  timeoutMs: number;
  proxy: URL | null;
}

/**
 * Streams a download into a temporary file beside `destination` while hashing it, and moves
 * it into place only when its size and SHA-256 are the signed ones. The bytes themselves are
 * not signed (anything on the way could change them), the hash is; a file that does not match
 * is deleted, never left where the program would run it.
 */
export async function downloadFile(target: DownloadTarget): Promise<void> {
  const temporary = join(
    dirname(target.destination),
    `.${basename(target.destination)}.${randomBytes(6).toString('hex')}.part`,
  );
  const hash = createHash('sha256');
  let size = 0;
  let isTooLarge = false;
  const measure = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > target.size) {
        // More than was signed is wrong already: stop rather than fill the disk.
        isTooLarge = true;
        done(new Error('larger than its signed size'));
        return;
      }
      hash.update(chunk);
      done(null, chunk);
    },
  });
  let current: ClientRequest | null = null;
  let isTimedOut = false;
  const timer = setTimeout(() => {
    isTimedOut = true;
    current?.destroy(new Error('timed out'));
  }, target.timeoutMs);
  try {
    const response = await openHttpRequest(
      {
        url: target.url,
        method: 'GET',
        headers: {},
        timeoutMs: target.timeoutMs,
        proxy: target.proxy,
      },
      (request) => {
        current = request;
      },
    );
    if (response.statusCode !== 200) {
      response.resume();
      throw new TransportError(
        response.statusCode !== undefined && response.statusCode >= 500
          ? 'server-error'
          : 'unreachable',
        `The download answered HTTP ${response.statusCode}`,
        response.statusCode ?? null,
      );
    }
    await pipeline(response, measure, createWriteStream(temporary, { mode: 0o600 }));
  } catch (error) {
    await rm(temporary, { force: true });
    if (isTooLarge) throw digestRefusal(`more than the ${target.size} bytes signed`);
    if (isTimedOut) {
      throw new TransportError('timeout', `Download not done within ${target.timeoutMs} ms`);
    }
    if (error instanceof TransportError) throw error;
    throw new TransportError('unreachable', `Download failed: ${(error as Error).message}`);
  } finally {
    clearTimeout(timer);
  }
  const sha256 = hash.digest('hex');
  if (size !== target.size || sha256 !== target.sha256.toLowerCase()) {
    await rm(temporary, { force: true });
    throw digestRefusal(`${size} bytes with SHA-256 ${sha256}`);
  }
  await rename(temporary, target.destination);
}

const digestRefusal = (what: string) =>
  new SignatureError('digest', `The download does not match its signed size and SHA-256: ${what}`);
