import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { ShopProduct, ShopProvider } from '@latchkey/contracts';
import { applications } from './applications.ts';

/**
 * A shop that sells an application's plans. Its URL names `public_id`, an unguessable id that
 * is no key of ours: it lets the shop do only what its signed events ask, for this
 * application. The signing secret (and Gumroad's URL token, and an optional API key of the
 * shop's) are sealed with AES-256-GCM: the server must read them to verify and to show the
 * URL again. A deleted connection keeps its row (its URL answers 404 from then on) so its
 * orders and their keys stay on record.
 */
export const shopConnections = pgTable(
  'shop_connections',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    publicId: text('public_id').notNull(),
    provider: text('provider').$type<ShopProvider>().notNull(),
    name: text('name').notNull(),
    isTestMode: boolean('test_mode').notNull().default(false),
    /** Null for Gumroad, which signs nothing. */
    secretSealed: text('secret_sealed'),
    secretHint: text('secret_hint'),
    /** Gumroad only: the token its URL carries. */
    urlTokenSealed: text('url_token_sealed'),
    apiKeySealed: text('api_key_sealed'),
    products: jsonb('products')
      .$type<ShopProduct[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('shop_connections_public_id_idx').on(table.publicId),
    index('shop_connections_application_idx').on(table.applicationId),
  ],
);

export type ShopConnectionRow = typeof shopConnections.$inferSelect;
