import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  primaryKey,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import type { ShopOrderStatus, ShopProvider } from '@latchkey/contracts';
import { applications } from './applications.ts';
import { plans } from './plans.ts';
import { shopConnections } from './shop-connections.ts';

/**
 * One line of a shop order (one product of it), and what it did. The unique index on the
 * connection, the shop's order id and the product is what mints a paid order once however
 * often and however concurrently the shop delivers it. `refs` holds every identifier a later
 * refund or dispute may name the order by (Stripe names a payment intent, not a session).
 */
export const shopOrders = pgTable(
  'shop_orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    connectionId: uuid('connection_id')
      .notNull()
      .references(() => shopConnections.id, { onDelete: 'cascade' }),
    provider: text('provider').$type<ShopProvider>().notNull(),
    providerOrderId: text('provider_order_id').notNull(),
    productId: text('product_id').notNull(),
    refs: text('refs')
      .array()
      .notNull()
      .default(sql`'{}'`),
    /** The shop's subscription id: renewals find their first order by it. */
    subscriptionRef: text('subscription_ref'),
    /** The shop's customer id (Paddle sends no address with a transaction). */
    customerRef: text('customer_ref'),
    /** A renewal's first order, whose keys it extended. */
    renewsOrderId: uuid('renews_order_id').references((): AnyPgColumn => shopOrders.id, {
      onDelete: 'set null',
    }),
    buyerEmail: text('buyer_email'),
    quantity: integer('quantity').notNull(),
    amount: bigint('amount', { mode: 'number' }),
    currency: text('currency'),
    isTestMode: boolean('test_mode').notNull().default(false),
    status: text('status').$type<ShopOrderStatus>().notNull(),
    /** The plan its keys were minted from. */
    planId: uuid('plan_id').references(() => plans.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('shop_orders_once_idx').on(
      table.connectionId,
      table.providerOrderId,
      table.productId,
    ),
    index('shop_orders_application_created_idx').on(table.applicationId, table.createdAt, table.id),
    index('shop_orders_refs_idx').using('gin', table.refs),
    index('shop_orders_subscription_idx').on(table.connectionId, table.subscriptionRef),
    index('shop_orders_customer_idx').on(table.connectionId, table.customerRef),
    index('shop_orders_buyer_email_trgm_idx').using('gin', table.buyerEmail.op('gin_trgm_ops')),
  ],
);

export type ShopOrderRow = typeof shopOrders.$inferSelect;

/**
 * Every event a shop delivered, once: the unique index on the connection and the provider's
 * event id is taken in the transaction of the event's effect, so a retried or doubled
 * delivery changes nothing. A refund that arrives before its order is kept here (`kind`,
 * `refs`), and the order finds it when it comes.
 */
export const shopEvents = pgTable(
  'shop_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    connectionId: uuid('connection_id')
      .notNull()
      .references(() => shopConnections.id, { onDelete: 'cascade' }),
    providerEventId: text('provider_event_id').notNull(),
    /** The provider's own name of the event (`checkout.session.completed`). */
    type: text('type').notNull(),
    /** What it meant here: paid, renewal, refund, chargeback, lapse, customer, ignored. */
    kind: text('kind').notNull(),
    refs: text('refs')
      .array()
      .notNull()
      .default(sql`'{}'`),
    orderId: uuid('order_id').references(() => shopOrders.id, { onDelete: 'set null' }),
    outcome: text('outcome').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('shop_events_once_idx').on(table.connectionId, table.providerEventId),
    index('shop_events_reversal_refs_idx')
      .using('gin', table.refs)
      .where(sql`${table.kind} in ('refund', 'chargeback')`),
    index('shop_events_order_idx').on(table.orderId),
  ],
);

/** Paddle's customers, by id: its transactions name the customer, not the address. */
export const shopCustomers = pgTable(
  'shop_customers',
  {
    connectionId: uuid('connection_id')
      .notNull()
      .references(() => shopConnections.id, { onDelete: 'cascade' }),
    customerRef: text('customer_ref').notNull(),
    email: text('email').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.connectionId, table.customerRef] })],
);
