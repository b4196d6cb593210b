import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { ApiTokenScope } from '@latchkey/contracts';
import { ownerAccounts } from './owner-accounts.ts';

/**
 * A management API token. The token is a bearer secret: only its keyed digest is
 * kept (lib/keyed-digest.ts, purpose api-token), and a short prefix the console can show.
 * Revoking deletes the row, so a revoked token and one that never existed answer alike; the
 * audit trail keeps the name and prefix. The creator's deletion takes the token with it.
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerAccountId: uuid('owner_account_id')
      .notNull()
      .references(() => ownerAccounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    tokenDigest: text('token_digest').notNull().unique(),
    scopes: text('scopes').array().$type<ApiTokenScope[]>().notNull(),
    /** Null: every application of the creator, present and future. */
    applicationIds: integer('application_ids').array(),
    /** Addresses and CIDR ranges, v4 and v6; null: any address. */
    allowedIps: text('allowed_ips').array(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    lastUsedIp: text('last_used_ip'),
    /** Calls answered, by kind (reads are counted per token, writes audited). */
    readCount: bigint('read_count', { mode: 'number' })
      .notNull()
      .default(sql`0`),
    writeCount: bigint('write_count', { mode: 'number' })
      .notNull()
      .default(sql`0`),
  },
  (table) => [index('api_tokens_owner_idx').on(table.ownerAccountId, table.createdAt.desc())],
);

export type ApiTokenRow = typeof apiTokens.$inferSelect;
