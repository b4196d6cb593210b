import { and, eq, sql } from 'drizzle-orm';
import type { AuditTargetKind, OwnerWriteAction } from '@latchkey/contracts';
import { applications, auditEntries } from '../db/schema/index.ts';
import type { OwnerContext } from '../http/request-context.ts';
import { auditActorColumns } from './audit-actor-columns.ts';
import { redactAuditedChange } from './redact-audited-change.ts';

export interface OwnerWrite {
  action: OwnerWriteAction;
  /** The application the write was in; its name is read in the insert unless given. */
  application: { id: number; name?: string } | null;
  target: { kind: AuditTargetKind; id: string | number; label: string | null };
  /** The request's fields; secrets are redacted here, at any depth. */
  change?: unknown;
}

/**
 * The audit entry of one owner write, with ctx.db: callers pass the transaction that makes
 * the write, so a write and its entry are committed together or not at all (an entry that
 * cannot be written rolls the write back). The actor is ctx's: the owner in the console, or
 * the owner's management API token and the address it called from.
 */
export async function recordOwnerWrite({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: OwnerWrite;
}): Promise<void> {
  const { application, target } = input;
  await ctx.db.insert(auditEntries).values({
    ...auditActorColumns(ctx),
    action: input.action,
    // The environment's owner: the target account of every owner write is the actor's own.
    targetAccountId: ctx.account.id,
    targetEmail: ctx.account.email,
    before: null,
    after: redactAuditedChange(input.change),
    applicationId: application?.id ?? null,
    applicationName:
      application === null
        ? null
        : (application.name ??
          sql`(${ctx.db
            .select({ name: applications.name })
            .from(applications)
            .where(
              and(
                eq(applications.id, application.id),
                eq(applications.ownerAccountId, ctx.account.id),
              ),
            )})`),
    targetKind: target.kind,
    targetId: String(target.id),
    targetLabel: target.label,
    createdAt: ctx.clock.now(),
  });
}
