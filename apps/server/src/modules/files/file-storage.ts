import type { Readable } from 'node:stream';

/** What storing a file's bytes produced: checked against the limit as they arrived. */
export interface StoredBytes {
  sizeBytes: number;
  /** Hex SHA-256 of every byte written. */
  sha256: string;
}

/**
 * Where the bytes of an application's files live, behind the one interface the upload and the
 * download use, so an object store can be added later without touching them. The
 * file's record (`app_files`) is not the storage's: only its bytes are.
 */
export interface FileStorage {
  /** Bytes per piece this storage writes; kept on the file's record. */
  readonly chunkSizeBytes: number;
  /**
   * Writes the bytes of `source` as they arrive, holding about one piece in memory. Throws
   * `tooLarge()` once more than `maxBytes` have arrived, and whatever reading `source` throws
   * (an aborted upload); the caller then deletes what was written.
   */
  write(input: {
    fileId: string;
    source: AsyncIterable<Buffer>;
    maxBytes: number;
    tooLarge: () => Error;
  }): Promise<StoredBytes>;
  /** Bytes `start` to `end` (inclusive) of a stored file, read a few pieces at a time. */
  readRange(input: {
    fileId: string;
    chunkSizeBytes: number;
    start: number;
    end: number;
  }): Readable;
  /** Forgets a file's bytes (nothing happens when there are none). */
  delete(fileId: string): Promise<void>;
}
