import { integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { SampleLanguage } from '@latchkey/contracts';
import { applications } from './applications.ts';
import { ownerAccounts } from './owner-accounts.ts';

/**
 * An account's edited client sample for one application and language. The /integration page and the
 * /code-editor template share it. No row means the rendered default.
 */
export const integrationSamples = pgTable(
  'integration_samples',
  {
    ownerAccountId: uuid('owner_account_id')
      .notNull()
      .references(() => ownerAccounts.id, { onDelete: 'cascade' }),
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    language: text('language').$type<SampleLanguage>().notNull(),
    code: text('code').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.ownerAccountId, table.applicationId, table.language] })],
);

export type IntegrationSample = typeof integrationSamples.$inferSelect;
