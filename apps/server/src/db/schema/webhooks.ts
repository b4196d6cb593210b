import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import type {
  WebhookDeliveryStatus,
  WebhookEvent,
  WebhookEventPayload,
  WebhookFormat,
} from '@latchkey/contracts';
import { applications } from './applications.ts';
import { ownerAccounts } from './owner-accounts.ts';

/** Where an owner's client-API events are sent. */
export const webhooks = pgTable(
  'webhooks',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    ownerAccountId: uuid('owner_account_id')
      .notNull()
      .references(() => ownerAccounts.id, { onDelete: 'cascade' }),
    /** Only this application's events; null means every application of the owner. */
    applicationId: integer('application_id').references(() => applications.id, {
      onDelete: 'cascade',
    }),
    url: text('url').notNull(),
    /** The signing secret, AES-256-GCM encrypted with the server secret (the owner may reveal it). */
    secretEncrypted: text('secret_encrypted').notNull(),
    /** The secret's last characters, for the masked form the API returns. */
    secretHint: text('secret_hint').notNull(),
    events: text('events')
      .array()
      .$type<WebhookEvent[]>()
      .notNull()
      .default(sql`'{}'`),
    format: text('format').$type<WebhookFormat>().notNull().default('auto'),
    isActive: boolean('is_active').notNull().default(true),
    /** Why the engine turned it off (410 Gone, five days of failures); null when the owner did. */
    disabledReason: text('disabled_reason'),
    /** Start of the current run of failed attempts; null after a success. */
    failingSince: timestamp('failing_since', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('webhooks_owner_idx').on(table.ownerAccountId),
    index('webhooks_application_idx').on(table.applicationId),
  ],
);

export type Webhook = typeof webhooks.$inferSelect;

/**
 * The outbox: one row per event per subscribed webhook, written in the same transaction as
 * what caused it, then claimed and sent by the dispatcher. Its id is the `webhook-id` every
 * attempt carries, so receivers can deduplicate.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    webhookId: integer('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    event: text('event').$type<WebhookEvent>().notNull(),
    /** The canonical event (`{ type, timestamp, data }`); formats are rendered from it at send time. */
    payload: jsonb('payload').$type<WebhookEventPayload>().notNull(),
    /** No foreign key: retention deletes activity rows while their deliveries are kept. */
    activityLogId: bigint('activity_log_id', { mode: 'number' }),
    status: text('status').$type<WebhookDeliveryStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /** When a pending delivery is next due; while an attempt runs, the end of its lease. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * Set while an attempt is being sent (the end of its claim's lease), cleared when its
     * result is written: a manual retry must not make a delivery that is in flight due
     * again, or a second claim would send it twice.
     */
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    lastStatus: integer('last_status'),
    lastError: text('last_error'),
    lastDurationMs: integer('last_duration_ms'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (table) => [
    // The dispatcher's claim: due pending deliveries, oldest first.
    index('webhook_deliveries_due_idx')
      .on(table.nextAttemptAt)
      .where(sql`${table.status} = 'pending'`),
    // The delivery log of one webhook, newest first.
    index('webhook_deliveries_webhook_idx').on(table.webhookId, table.createdAt),
  ],
);

export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;
