import { and, count, eq, ne } from 'drizzle-orm';
import {
  adminMessages,
  hasPermission,
  permissionCatalogue,
  type Permission,
  type Role,
} from '@latchkey/contracts';
import { ownerAccounts, ownerSessions, type OwnerAccount } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { missingPermissionMessage } from '../../http/route-permission.ts';
import { forbidden } from '../../lib/errors.ts';
import { loadActorAndTarget } from './load-actor-and-target.ts';
import { lockOwnerRoles } from './lock-owner-roles.ts';
import { recordAuditEntry } from './record-audit-entry.ts';
import { roleRank } from './role-rank.ts';

export interface SiteAccountChanges {
  role: Role;
  permissions: Permission[];
  isActive: boolean;
}

/**
 * Saves an account's role, permissions and active flag together, under the rules of who may
 * change whom (only an owner edits an owner, no one grants above their own role or a
 * permission they lack, the last active owner stays), all judged inside one transaction
 * holding the owner-role lock. Deactivation ends the account's console sessions in the same transaction; its
 * applications keep serving their end users.
 */
export async function updateSiteAccount({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: { accountId: string; changes: SiteAccountChanges };
}): Promise<OwnerAccount> {
  return ctx.db.transaction(async (tx) => {
    const txCtx = { ...ctx, db: tx };
    await lockOwnerRoles(tx);
    const { actor, target } = await loadActorAndTarget(txCtx, input.accountId);
    const { changes } = input;
    assertChangeAllowed(actor, target, changes);

    if (
      target.role === 'owner' &&
      target.isActive &&
      (changes.role !== 'owner' || !changes.isActive)
    ) {
      const [others] = await tx
        .select({ value: count() })
        .from(ownerAccounts)
        .where(
          and(
            eq(ownerAccounts.role, 'owner'),
            eq(ownerAccounts.isActive, true),
            ne(ownerAccounts.id, target.id),
          ),
        );
      if ((others?.value ?? 0) === 0) throw forbidden(adminMessages.lastOwner);
    }

    const [updated] = await tx
      .update(ownerAccounts)
      .set({ ...changes, updatedAt: ctx.clock.now() })
      .where(eq(ownerAccounts.id, target.id))
      .returning();
    if (!updated) throw new Error('update returned no row');
    if (!changes.isActive) {
      // The guard already refuses inactive accounts; deleting the sessions as well means a
      // later reactivation does not revive sessions that were meant to end.
      await tx.delete(ownerSessions).where(eq(ownerSessions.accountId, target.id));
    }
    await recordAuditEntry({
      ctx: txCtx,
      input: { action: 'user_updated', target, before: target, after: updated },
    });
    ctx.log.info(
      { targetAccountId: target.id, role: updated.role, isActive: updated.isActive },
      'site account updated',
    );
    return updated;
  });
}

function assertChangeAllowed(
  actor: OwnerAccount,
  target: OwnerAccount,
  changes: SiteAccountChanges,
): void {
  const actorPermissions = { role: actor.role, permissions: actor.permissions };
  const isActorOwner = actor.role === 'owner';
  if (target.role === 'owner' && !isActorOwner) throw forbidden(adminMessages.onlyOwnerEditsOwner);

  const isRoleChanged = changes.role !== target.role;
  const changedPermissions = symmetricDifference(target.permissions, changes.permissions);
  const isActiveChanged = changes.isActive !== target.isActive;

  if (isActiveChanged && !hasPermission(actorPermissions, 'manage_users')) {
    throw forbidden(missingPermissionMessage('manage_users'));
  }
  if (
    (isRoleChanged || changedPermissions.length > 0) &&
    !hasPermission(actorPermissions, 'manage_permissions')
  ) {
    throw forbidden(missingPermissionMessage('manage_permissions'));
  }
  if (isActiveChanged && !changes.isActive && target.id === actor.id) {
    throw forbidden(adminMessages.cannotDeactivateSelf);
  }
  if (isActorOwner) return;
  if (roleRank(target.role) > roleRank(actor.role)) {
    throw forbidden('You cannot change an account whose role is above your own.');
  }
  if (isRoleChanged && roleRank(changes.role) > roleRank(actor.role)) {
    throw forbidden('You cannot grant a role above your own.');
  }
  // Granting or withdrawing: either is authority over the permission, which one must hold.
  const notHeld = changedPermissions.filter(
    (permission) => !actor.permissions.includes(permission),
  );
  if (notHeld.length > 0) {
    const labels = notHeld.map((permission) => permissionCatalogue[permission].label).join(', ');
    throw forbidden(`You cannot grant or withdraw a permission you do not hold: ${labels}.`);
  }
}

function symmetricDifference(before: Permission[], after: Permission[]): Permission[] {
  return [
    ...after.filter((permission) => !before.includes(permission)),
    ...before.filter((permission) => !after.includes(permission)),
  ];
}
