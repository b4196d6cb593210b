import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { AuditAction, AuditTargetKind } from '@latchkey/contracts';

/**
 * Who did what to whom in the administration of the site, with the account's
 * state before and after. No foreign keys on purpose: the trail must outlive the accounts
 * it names (a deletion is itself an entry), so names are kept as they were at the time.
 */
export const auditEntries = pgTable(
  'audit_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    actorAccountId: uuid('actor_account_id').notNull(),
    actorEmail: text('actor_email').notNull(),
    action: text('action').$type<AuditAction>().notNull(),
    targetAccountId: uuid('target_account_id').notNull(),
    targetEmail: text('target_email').notNull(),
    before: jsonb('before').$type<Record<string, unknown>>(),
    after: jsonb('after').$type<Record<string, unknown>>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * A write through the management API: the token that made it, as it was named
     * then, and the address it came from. The actor columns name the token's creator.
     */
    actorTokenId: uuid('actor_token_id'),
    actorTokenName: text('actor_token_name'),
    actorTokenPrefix: text('actor_token_prefix'),
    ipAddress: text('ip_address'),
    /**
     * An owner's write in their environment: the application it was in (its name as it was
     * then), and what it touched (kind, id and a label a person recognises). The change
     * itself, redacted, is in `after`.
     */
    applicationId: integer('application_id'),
    applicationName: text('application_name'),
    targetKind: text('target_kind').$type<AuditTargetKind>(),
    targetId: text('target_id'),
    targetLabel: text('target_label'),
  },
  (table) => [
    index('audit_entries_created_idx').on(table.createdAt.desc(), table.id.desc()),
    // The admin trail's search: the e-mail of the account that acted or was acted on.
    index('audit_entries_actor_email_trgm_idx').using('gin', table.actorEmail.op('gin_trgm_ops')),
    index('audit_entries_target_email_trgm_idx').using('gin', table.targetEmail.op('gin_trgm_ops')),
    // An account reads its own trail through the management API, newest first.
    index('audit_entries_actor_created_idx').on(
      table.actorAccountId,
      table.createdAt.desc(),
      table.id.desc(),
    ),
  ],
);

export type AuditEntry = typeof auditEntries.$inferSelect;
