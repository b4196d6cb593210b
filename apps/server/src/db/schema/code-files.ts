import {
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { CodeFileName } from '@latchkey/contracts';
import { ownerAccounts } from './owner-accounts.ts';

/**
 * An account's reference document of the /code-editor: its current text and
 * version. The row is the lock a save takes, so concurrent saves number their versions one
 * after the other. Deleted with the account.
 */
export const codeFiles = pgTable(
  'code_files',
  {
    ownerAccountId: uuid('owner_account_id')
      .notNull()
      .references(() => ownerAccounts.id, { onDelete: 'cascade' }),
    name: text('name').$type<CodeFileName>().notNull(),
    content: text('content').notNull(),
    version: integer('version').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.ownerAccountId, table.name] })],
);

/**
 * Every kept version of a document, the current one included (CODE_FILE_HISTORY_LIMIT per
 * document; older ones are pruned in the saving transaction). A restore is a new version.
 */
export const codeFileVersions = pgTable(
  'code_file_versions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerAccountId: uuid('owner_account_id')
      .notNull()
      .references(() => ownerAccounts.id, { onDelete: 'cascade' }),
    name: text('name').$type<CodeFileName>().notNull(),
    version: integer('version').notNull(),
    content: text('content').notNull(),
    origin: text('origin').$type<'seed' | 'save' | 'restore'>().notNull(),
    restoredFrom: integer('restored_from'),
    savedByEmail: text('saved_by_email'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    // Two saves cannot both claim one number; the account id leads, so the account's
    // deletion cascades through this index too.
    uniqueIndex('code_file_versions_file_version_idx').on(
      table.ownerAccountId,
      table.name,
      table.version,
    ),
  ],
);

export type CodeFileRow = typeof codeFiles.$inferSelect;
export type CodeFileVersionRow = typeof codeFileVersions.$inferSelect;
