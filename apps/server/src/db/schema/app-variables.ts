import {
  boolean,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { applications } from './applications.ts';
import { appUsers } from './app-users.ts';

/**
 * Remote variables of an application: a kill switch, a config value. The client
 * API answers a value signed; one that `requires_session` only to a program with a live session.
 */
export const appVariables = pgTable(
  'app_variables',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Text up to 64 KB (checked by the contracts). */
    value: text('value').notNull(),
    requiresSession: boolean('requires_session').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('app_variables_app_name_idx').on(table.applicationId, table.name)],
);

export type AppVariable = typeof appVariables.$inferSelect;

/**
 * One end user's variables: the program reads and writes its own user's through
 * the client API unless the owner made one read-only. At most 100 per user, 16 KB each.
 */
export const appUserVariables = pgTable(
  'app_user_variables',
  {
    appUserId: uuid('app_user_id')
      .notNull()
      .references(() => appUsers.id, { onDelete: 'cascade' }),
    /** Denormalised from the user, so owner reads are scoped without a join. */
    applicationId: integer('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    value: text('value').notNull(),
    isReadOnly: boolean('read_only').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.appUserId, table.name] })],
);

export type AppUserVariable = typeof appUserVariables.$inferSelect;
