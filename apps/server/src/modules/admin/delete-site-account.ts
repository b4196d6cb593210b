import { eq } from 'drizzle-orm';
import { adminMessages } from '@latchkey/contracts';
import { applications, ownerAccounts } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { forbidden } from '../../lib/errors.ts';
import type { ApplicationEvents } from '../../events/application-events.ts';
import { loadActorAndTarget } from './load-actor-and-target.ts';
import { lockOwnerRoles } from './lock-owner-roles.ts';
import { recordAuditEntry } from './record-audit-entry.ts';
import { roleRank } from './role-rank.ts';

/**
 * Deletes an account and its whole environment in one transaction: the account row's
 * foreign keys cascade to its sessions, applications (and through them end users, their
 * sessions, activity logs, blacklist entries, webhooks and deliveries) and saved samples.
 * The audit entry is written in the same transaction. Caches of the deleted applications
 * are dropped after the commit.
 */
export async function deleteSiteAccount({
  ctx,
  input,
}: {
  ctx: OwnerContext & { applicationEvents: ApplicationEvents };
  input: { accountId: string };
}): Promise<void> {
  const deletedApplications = await ctx.db.transaction(async (tx) => {
    const txCtx = { ...ctx, db: tx };
    await lockOwnerRoles(tx);
    const { actor, target } = await loadActorAndTarget(txCtx, input.accountId);
    if (target.id === actor.id) throw forbidden(adminMessages.cannotDeleteSelf);
    if (target.role === 'owner') throw forbidden(adminMessages.cannotDeleteOwner);
    if (actor.role !== 'owner' && roleRank(target.role) > roleRank(actor.role)) {
      throw forbidden('You cannot delete an account whose role is above your own.');
    }
    const owned = await tx
      .select({ id: applications.id, apiKey: applications.apiKey })
      .from(applications)
      .where(eq(applications.ownerAccountId, target.id));
    await tx.delete(ownerAccounts).where(eq(ownerAccounts.id, target.id));
    await recordAuditEntry({
      ctx: txCtx,
      input: { action: 'user_deleted', target, before: target, after: null },
    });
    return owned;
  });
  ctx.log.info(
    { targetAccountId: input.accountId, applications: deletedApplications.length },
    'site account deleted',
  );
  await Promise.all(
    deletedApplications.map((application) =>
      ctx.applicationEvents.emitChange(
        { kind: 'deleted', applicationId: application.id, apiKey: application.apiKey },
        ctx.log,
      ),
    ),
  );
}
