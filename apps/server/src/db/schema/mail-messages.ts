import { sql } from 'drizzle-orm';
import {
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import type { MailKind, MailStatus } from '@latchkey/contracts';
import { applications } from './applications.ts';
import { appUsers } from './app-users.ts';

/**
 * The mail outbox: one row per message, written in the same transaction as what causes it (a
 * reset request, a minted key), then claimed and sent by the mail worker. The subject and
 * bodies are rendered from the application's template when the message is sent; what a
 * message must carry that may not be stored in clear (a reset link's token, a licence key) is
 * sealed (AES-256-GCM) and dropped once an SMTP server has accepted it. Its id is the
 * Message-ID every attempt carries.
 */
export const mailMessages = pgTable(
  'mail_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    /** The end user it is about; null for a test mail or a key sent to a new buyer. */
    appUserId: uuid('app_user_id').references(() => appUsers.id, { onDelete: 'set null' }),
    kind: text('kind').$type<MailKind>().notNull(),
    recipient: text('recipient').notNull(),
    /** Values the template may show that are not secret (a plan's name, a date). */
    values: jsonb('values').$type<Record<string, string>>().notNull().default({}),
    /** The secret values (`{ token }`, `{ key }`) as sealed JSON; null once delivered. */
    secretsSealed: text('secrets_sealed'),
    /** Rendered at the first attempt, for the mail log. */
    subject: text('subject'),
    /**
     * The local mailbox only (development without SMTP): the rendered text and HTML bodies,
     * sealed, so the console can open the message as it would be read.
     */
    contentSealed: text('content_sealed'),
    status: text('status').$type<MailStatus>().notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    /** When a waiting message is next due; while an attempt runs, the end of its lease. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (table) => [
    // The worker's claim: due messages, oldest first (a dead instance's lease comes due too).
    index('mail_messages_due_idx')
      .on(table.nextAttemptAt)
      .where(sql`${table.status} in ('queued', 'retrying', 'sending')`),
    // One application's mail log, newest first.
    index('mail_messages_application_idx').on(table.applicationId, table.createdAt),
    // The retention sweep: finished messages, oldest first.
    index('mail_messages_finished_idx')
      .on(table.createdAt)
      .where(sql`${table.status} in ('sent', 'failed')`),
  ],
);

export type MailMessage = typeof mailMessages.$inferSelect;

/**
 * An application's own wording of one kind of mail; a kind without a row uses the default
 * (modules/mail/default-mail-templates.ts). Checked when saved: values are always escaped in
 * the HTML body.
 */
export const mailTemplates = pgTable(
  'mail_templates',
  {
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<MailKind>().notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.applicationId, table.kind] })],
);
