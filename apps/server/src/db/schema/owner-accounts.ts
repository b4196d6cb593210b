import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { Permission, Role } from '@latchkey/contracts';

/** A vendor who signs in with Google: the tenant every other row is scoped to. */
export const ownerAccounts = pgTable(
  'owner_accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    firebaseUid: text('firebase_uid').notNull().unique(),
    email: text('email').notNull(),
    firstName: text('first_name'),
    lastName: text('last_name'),
    role: text('role').$type<Role>().notNull().default('user'),
    permissions: text('permissions')
      .array()
      .$type<Permission[]>()
      .notNull()
      .default(sql`'{}'`),
    isActive: boolean('is_active').notNull().default(true),
    accountType: text('account_type').notNull().default('Premium'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
  },
  (table) => [index('owner_accounts_email_idx').on(sql`lower(${table.email})`)],
);

export type OwnerAccount = typeof ownerAccounts.$inferSelect;
