import type { AuditAction, AuditedBulkAction } from '@latchkey/contracts';
import { auditEntries, type OwnerAccount } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { auditActorColumns } from '../../audit/audit-actor-columns.ts';

type AuditedState = Pick<OwnerAccount, 'role' | 'permissions' | 'isActive'>;

export const auditedState = (account: AuditedState) => ({
  role: account.role,
  permissions: account.permissions,
  isActive: account.isActive,
});

/** Writes one audit entry with ctx.db, so callers pass their transaction: no change without its entry. */
export async function recordAuditEntry({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: {
    action: AuditAction;
    target: Pick<OwnerAccount, 'id' | 'email'>;
    before: AuditedState | null;
    after: AuditedState | null;
  };
}): Promise<void> {
  await ctx.db.insert(auditEntries).values({
    ...auditActorColumns(ctx),
    action: input.action,
    targetAccountId: input.target.id,
    targetEmail: input.target.email,
    before: input.before ? auditedState(input.before) : null,
    after: input.after ? auditedState(input.after) : null,
    createdAt: ctx.clock.now(),
  });
}

/**
 * The entry of one batch of a bulk action on the owner's end users, written in the
 * batch's transaction. The owner's own account is the target; the batch is in `after`.
 */
export async function recordBulkActionAuditEntry({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: AuditedBulkAction;
}): Promise<void> {
  await ctx.db.insert(auditEntries).values({
    ...auditActorColumns(ctx),
    action: 'end_users_bulk_action',
    targetAccountId: ctx.account.id,
    targetEmail: ctx.account.email,
    before: null,
    after: { ...input },
    createdAt: ctx.clock.now(),
  });
}
