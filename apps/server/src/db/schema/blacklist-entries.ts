import { sql, type SQL } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uuid,
  type PgColumn,
} from 'drizzle-orm/pg-core';
import type { BlacklistType } from '@latchkey/contracts';
import { applications } from './applications.ts';
import { ownerAccounts } from './owner-accounts.ts';

export { blacklistTypes, type BlacklistType } from '@latchkey/contracts';

/**
 * An IP entry that is a CIDR range rather than one address. Literal SQL, not parameters: the
 * client API's match must repeat the partial index's predicate exactly for the planner to use
 * that index, in a generic prepared plan too.
 */
export function isBlacklistIpRange(table: { type: PgColumn; value: PgColumn }): SQL {
  return sql`(${table.type} = 'ip' and strpos(${table.value}, '/') > 0)`;
}

/** A block on an IP, username, e-mail or HWID: for one application, or (null) all of the owner's. */
export const blacklistEntries = pgTable(
  'blacklist_entries',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    ownerAccountId: uuid('owner_account_id')
      .notNull()
      .references(() => ownerAccounts.id, { onDelete: 'cascade' }),
    applicationId: integer('application_id').references(() => applications.id, {
      onDelete: 'cascade',
    }),
    type: text('type').$type<BlacklistType>().notNull(),
    value: text('value').notNull(),
    reason: text('reason'),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // The client API asks "is this IP, username, e-mail or HWID blocked?" on every login and
  // registration: usernames and e-mails match case-insensitively, hence lower(value).
  (table) => [
    index('blacklist_entries_match_idx').on(
      table.ownerAccountId,
      table.type,
      sql`lower(${table.value})`,
    ),
    // The owner's IP ranges, read on every login and registration beside the exact lookup
    // (a range cannot be found by its value); most owners have none, and then this is empty.
    index('blacklist_entries_ip_range_idx')
      .on(table.ownerAccountId)
      .where(isBlacklistIpRange(table)),
    // The owner's list, newest first (and its count), from the index.
    index('blacklist_entries_owner_created_idx').on(
      table.ownerAccountId,
      table.createdAt,
      table.id,
    ),
    // The list's search (case-insensitive substring of value or reason), as for end users.
    index('blacklist_entries_value_trgm_idx').using('gin', table.value.op('gin_trgm_ops')),
    index('blacklist_entries_reason_trgm_idx').using('gin', table.reason.op('gin_trgm_ops')),
  ],
);

export type BlacklistEntry = typeof blacklistEntries.$inferSelect;
