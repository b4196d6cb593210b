import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { and, asc, eq, gte, lte } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { appFileChunks } from '../../db/schema/index.ts';
import type { FileStorage } from './file-storage.ts';

/** 1 MiB: a row small enough to insert without stalling other queries, few enough rows per GB. */
export const DATABASE_CHUNK_SIZE_BYTES = 1024 * 1024;
/** Pieces read per statement while serving: 4 MiB in memory at most, a query per 4 MiB. */
const CHUNKS_PER_READ = 4;

/**
 * Files in the database (`app_file_chunks`), so every instance serves every file, PGlite works
 * too and a PostgreSQL backup holds them. Each piece is its own INSERT, awaited before the
 * upload is read on: no transaction spans the upload (PGlite has one connection, and a 1 GB
 * upload in one transaction would hold every other query for its duration), and memory stays
 * at about one piece whatever the file's size, because the request is not read while we wait.
 */
export function createDatabaseFileStorage(
  db: Database,
  chunkSizeBytes = DATABASE_CHUNK_SIZE_BYTES,
): FileStorage {
  return {
    chunkSizeBytes,

    async write({ fileId, source, maxBytes, tooLarge }) {
      const hash = createHash('sha256');
      let pending = Buffer.allocUnsafe(chunkSizeBytes);
      let pendingLength = 0;
      let chunkIndex = 0;
      let sizeBytes = 0;
      const flush = async () => {
        if (pendingLength === 0) return;
        // A copy of exactly the bytes held: the driver may keep the buffer while it sends.
        const data = Buffer.from(pending.subarray(0, pendingLength));
        await db.insert(appFileChunks).values({ fileId, chunkIndex, data });
        chunkIndex += 1;
        pendingLength = 0;
      };
      for await (const received of source) {
        const bytes = Buffer.isBuffer(received) ? received : Buffer.from(received);
        sizeBytes += bytes.length;
        if (sizeBytes > maxBytes) throw tooLarge();
        hash.update(bytes);
        let offset = 0;
        while (offset < bytes.length) {
          const taken = bytes.copy(pending, pendingLength, offset);
          pendingLength += taken;
          offset += taken;
          if (pendingLength === chunkSizeBytes) {
            await flush();
            pending = Buffer.allocUnsafe(chunkSizeBytes);
          }
        }
      }
      await flush();
      return { sizeBytes, sha256: hash.digest('hex') };
    },

    readRange({ fileId, chunkSizeBytes: fileChunkSize, start, end }) {
      const firstChunk = Math.floor(start / fileChunkSize);
      const lastChunk = Math.floor(end / fileChunkSize);
      async function* pieces() {
        for (let from = firstChunk; from <= lastChunk; from += CHUNKS_PER_READ) {
          const to = Math.min(lastChunk, from + CHUNKS_PER_READ - 1);
          const rows = await db
            .select({ chunkIndex: appFileChunks.chunkIndex, data: appFileChunks.data })
            .from(appFileChunks)
            .where(
              and(
                eq(appFileChunks.fileId, fileId),
                gte(appFileChunks.chunkIndex, from),
                lte(appFileChunks.chunkIndex, to),
              ),
            )
            .orderBy(asc(appFileChunks.chunkIndex));
          if (rows.length !== to - from + 1) {
            throw new Error(`file ${fileId}: chunks ${from}-${to} incomplete (deleted meanwhile?)`);
          }
          for (const row of rows) {
            const chunkStart = row.chunkIndex * fileChunkSize;
            const sliceFrom = Math.max(0, start - chunkStart);
            const sliceTo = Math.min(row.data.length, end - chunkStart + 1);
            yield row.data.subarray(sliceFrom, sliceTo);
          }
        }
      }
      return Readable.from(pieces(), { objectMode: false, highWaterMark: 1 });
    },

    async delete(fileId) {
      await db.delete(appFileChunks).where(eq(appFileChunks.fileId, fileId));
    },
  };
}
