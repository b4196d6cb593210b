import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { applications } from './applications.ts';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * A file an application's programs may download: an installer, an update. Its
 * bytes are in `app_file_chunks`, in the database, so every instance can serve it, PGlite
 * works too and a PostgreSQL backup holds it. A row is written when an upload starts
 * (`is_complete` false, invisible to lists and downloads) and completed with its size and
 * SHA-256 when the last chunk is in, so no upload holds a transaction open for its duration.
 */
export const appFiles = pgTable(
  'app_files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    version: text('version').notNull(),
    platform: text('platform'),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull().default(0),
    /** Hex SHA-256 of the whole file; null until the upload completes. */
    sha256: text('sha256'),
    /** Bytes per chunk row (the last one may be shorter); kept per file so it can change. */
    chunkSizeBytes: integer('chunk_size_bytes').notNull(),
    requiresSession: boolean('requires_session').notNull().default(true),
    isComplete: boolean('is_complete').notNull().default(false),
    downloadCount: bigint('download_count', { mode: 'number' }).notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('app_files_app_idx').on(table.applicationId, table.createdAt),
    // The sweep of uploads a crash left behind.
    index('app_files_incomplete_idx')
      .on(table.createdAt)
      .where(sql`not ${table.isComplete}`),
  ],
);

export type AppFile = typeof appFiles.$inferSelect;

/** The bytes of an `app_files` row, in order; `chunk_index` n holds bytes from n × chunk size. */
export const appFileChunks = pgTable(
  'app_file_chunks',
  {
    fileId: uuid('file_id')
      .notNull()
      .references(() => appFiles.id, { onDelete: 'cascade' }),
    chunkIndex: integer('chunk_index').notNull(),
    data: bytea('data').notNull(),
  },
  (table) => [primaryKey({ columns: [table.fileId, table.chunkIndex] })],
);
