import { importKinds } from '@latchkey/contracts';
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { applications } from './applications.ts';
import { ownerAccounts } from './owner-accounts.ts';

/** A problem with one row of an uploaded file, by its row number (keyauth-export.ts). */
export interface ImportRowProblem {
  rowNumber: number;
  reason: string;
}

/**
 * An import of users or licence keys from KeyAuth: previewed when the file is
 * uploaded, then run in batches. The counts are exact; `conflicts` and `unreadable` keep only
 * the first IMPORT_PROBLEMS_KEPT entries, so a 100,000-row file of problems stays a small row.
 * `updated_at` moves with every batch: a `running` import whose `updated_at` is old lost its
 * process, and may be started again (start-import.ts).
 */
export const imports = pgTable(
  'imports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerAccountId: uuid('owner_account_id')
      .notNull()
      .references(() => ownerAccounts.id, { onDelete: 'cascade' }),
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    source: text('source', { enum: ['keyauth'] }).notNull(),
    kind: text('kind', { enum: importKinds }).notNull(),
    /** Which of KeyAuth's files it was (keyauth-export.ts's formats). */
    format: text('format').notNull(),
    status: text('status', { enum: ['previewed', 'running', 'done', 'failed'] })
      .notNull()
      .default('previewed'),
    totalRows: integer('total_rows').notNull(),
    readableRows: integer('readable_rows').notNull(),
    conflictRows: integer('conflict_rows').notNull(),
    unreadableRows: integer('unreadable_rows').notNull(),
    /** Readable rows handled so far (created or skipped). */
    doneRows: integer('done_rows').notNull().default(0),
    createdRows: integer('created_rows').notNull().default(0),
    skippedRows: integer('skipped_rows').notNull().default(0),
    conflicts: jsonb('conflicts').$type<ImportRowProblem[]>().notNull(),
    unreadable: jsonb('unreadable').$type<ImportRowProblem[]>().notNull(),
    /** The distinct KeyAuth levels in the file, sorted. */
    levels: text('levels')
      .array()
      .notNull()
      .default(sql`'{}'`),
    /** KeyAuth level -> plan id, as the last start gave it. */
    levelPlans: jsonb('level_plans').$type<Record<string, string>>().notNull().default({}),
    /** Why a failed import stopped, in words for the owner (details are in the log). */
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('imports_application_created_idx').on(table.applicationId, table.createdAt),
    check('imports_status', sql`${table.status} IN ('previewed', 'running', 'done', 'failed')`),
    check(
      'imports_kind',
      sql`${table.kind} IN (${sql.raw(importKinds.map((kind) => `'${kind}'`).join(', '))})`,
    ),
  ],
);

export type ImportRecord = typeof imports.$inferSelect;

/**
 * The readable rows of an import, kept between preview and start. A row holds a licence key
 * or a password hash, and bearer secrets are never stored in plain text (guide, security
 * rules): `data` is the row's JSON sealed with AES-256-GCM (import-row-sealing.ts). `is_done`
 * is set in the transaction that wrote the row's user or key, so a resumed import skips it.
 */
export const importRows = pgTable(
  'import_rows',
  {
    importId: uuid('import_id')
      .notNull()
      .references(() => imports.id, { onDelete: 'cascade' }),
    rowNumber: integer('row_number').notNull(),
    data: text('data').notNull(),
    isDone: boolean('is_done').notNull().default(false),
  },
  (table) => [primaryKey({ columns: [table.importId, table.rowNumber] })],
);

export type ImportRow = typeof importRows.$inferSelect;
