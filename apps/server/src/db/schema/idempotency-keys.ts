import { index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { apiTokens } from './api-tokens.ts';

/**
 * A management API write sent with an Idempotency-Key, and its answer once it has
 * one: a retry with the same key and body within 24 hours gets that answer instead of a
 * second key, user or webhook. Claimed by inserting the row before the work (the primary key
 * lets one request win a race); `status` is null while the first request is still working.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    apiTokenId: uuid('api_token_id')
      .notNull()
      .references(() => apiTokens.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** SHA-256 of the method, path and body: the same key with another request is a 422. */
    requestDigest: text('request_digest').notNull(),
    status: integer('status'),
    contentType: text('content_type'),
    body: text('body'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.apiTokenId, table.key] }),
    index('idempotency_keys_created_idx').on(table.createdAt),
  ],
);

export type IdempotencyKeyRow = typeof idempotencyKeys.$inferSelect;
