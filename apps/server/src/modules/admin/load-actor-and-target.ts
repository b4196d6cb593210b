import { eq } from 'drizzle-orm';
import { adminMessages } from '@latchkey/contracts';
import { ownerAccounts, type OwnerAccount } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { notFound, unauthenticated } from '../../lib/errors.ts';

/**
 * The acting account and the target, read again inside the caller's transaction (after
 * lockOwnerRoles): the rules must judge the roles as they are now, not as the session
 * lookup saw them a moment ago. The target row is locked against concurrent edits.
 */
export async function loadActorAndTarget(
  ctx: OwnerContext,
  targetId: string,
): Promise<{ actor: OwnerAccount; target: OwnerAccount }> {
  const [actor] = await ctx.db
    .select()
    .from(ownerAccounts)
    .where(eq(ownerAccounts.id, ctx.account.id));
  if (!actor || !actor.isActive) throw unauthenticated('Session expired or invalid');
  const [target] = await ctx.db
    .select()
    .from(ownerAccounts)
    .where(eq(ownerAccounts.id, targetId))
    .for('update');
  if (!target) throw notFound(adminMessages.userNotFound);
  return { actor, target };
}
