import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { appUsers } from './app-users.ts';
import { applications } from './applications.ts';
import { plans } from './plans.ts';
import { shopOrders } from './shop-orders.ts';
import { subscriptions } from './subscriptions.ts';

/**
 * Licence keys. A key is a bearer secret, so its text is never stored: it is found
 * by a keyed digest (HMAC under a key derived from SERVER_SECRET, lib/keyed-digest.ts) and kept
 * sealed with AES-256-GCM so the owner can reveal and export it. A database dump alone yields
 * no usable key. `display` is what lists show: the key's shape with all but its last four
 * characters hidden.
 *
 * `state` is what a write decides (unused, used, banned); "expired" is an unused key past its
 * redeem-by date, decided when read. A redemption is one conditional UPDATE of the row (still
 * unused, not past its date), so of two clients redeeming one key exactly one wins.
 */
export const licenseKeys = pgTable(
  'license_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    planId: uuid('plan_id')
      .notNull()
      .references(() => plans.id),
    keyDigest: text('key_digest').notNull(),
    keySealed: text('key_sealed').notNull(),
    display: text('display').notNull(),
    /** The key's last four characters, lower-cased: the owner finds a key by them. */
    keySuffix: text('key_suffix').notNull(),
    /**
     * The key's first letters and digits, lower-cased, as many as leave 80 bits of it unseen
     * besides the last four (modules/licenses/license-key-prefix.ts); null when the key cannot
     * spare enough to search by. The owner finds a key by how it starts.
     */
    keyPrefix: text('key_prefix'),
    /**
     * Set on the keys that were there before prefixes were kept: their prefix is worked out by
     * unsealing them, in the background, which SQL alone cannot do.
     */
    isKeyPrefixPending: boolean('key_prefix_pending').notNull().default(false),
    state: text('state', { enum: ['unused', 'used', 'banned'] })
      .notNull()
      .default('unused'),
    note: text('note'),
    redeemBy: timestamp('redeem_by', { withTimezone: true }),
    usedByUserId: uuid('used_by_user_id').references(() => appUsers.id, { onDelete: 'set null' }),
    usedAt: timestamp('used_at', { withTimezone: true }),
    /** The subscription the redemption extended, and by how much, so a ban takes back that part. */
    subscriptionId: uuid('subscription_id').references(() => subscriptions.id, {
      onDelete: 'set null',
    }),
    grantedDays: integer('granted_days'),
    isGrantedLifetime: boolean('granted_lifetime').notNull().default(false),
    /** A used key that is banned keeps who used it; `wasUsed` tells an unban what to go back to. */
    wasUsed: boolean('was_used').notNull().default(false),
    bannedReason: text('banned_reason'),
    bannedAt: timestamp('banned_at', { withTimezone: true }),
    /** Days a renewal added while the key was unused: its redemption grants them too. */
    extraDays: integer('extra_days').notNull().default(0),
    /** Days of updates a renewal added while the key was unused, for a plan with a window. */
    extraUpdatesDays: integer('extra_updates_days').notNull().default(0),
    /** The shop order that minted it, and its buyer's address. */
    shopOrderId: uuid('shop_order_id').references(() => shopOrders.id, { onDelete: 'set null' }),
    buyerEmail: text('buyer_email'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    // The client API's lookup: an unknown key and another application's key both miss here.
    uniqueIndex('license_keys_application_digest_idx').on(table.applicationId, table.keyDigest),
    // The owner's list, newest first, whole or by status (ids from the index alone).
    index('license_keys_application_created_idx').on(
      table.applicationId,
      table.createdAt,
      table.id,
    ),
    index('license_keys_application_state_idx').on(
      table.applicationId,
      table.state,
      table.createdAt,
      table.id,
    ),
    index('license_keys_application_plan_idx').on(
      table.applicationId,
      table.planId,
      table.state,
      table.createdAt,
      table.id,
    ),
    index('license_keys_application_suffix_idx').on(table.applicationId, table.keySuffix),
    // Byte-wise order (text_pattern_ops), whatever the database's collation: a prefix search
    // is then a range of this index.
    index('license_keys_application_prefix_idx').on(
      table.applicationId,
      table.keyPrefix.op('text_pattern_ops'),
    ),
    // The keys still waiting for a prefix: empty once the backfill is done, so it costs nothing.
    index('license_keys_prefix_pending_idx')
      .on(table.id)
      .where(sql`${table.isKeyPrefixPending}`),
    index('license_keys_note_trgm_idx').using('gin', table.note.op('gin_trgm_ops')),
    index('license_keys_used_by_idx').on(table.usedByUserId),
    index('license_keys_subscription_idx').on(table.subscriptionId),
    index('license_keys_shop_order_idx').on(table.shopOrderId),
    check('license_keys_state', sql`${table.state} IN ('unused', 'used', 'banned')`),
    check(
      'license_keys_used_has_time',
      sql`${table.state} <> 'used' OR ${table.usedAt} IS NOT NULL`,
    ),
  ],
);

export type LicenseKey = typeof licenseKeys.$inferSelect;
