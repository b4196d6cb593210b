import { plans } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { ownedPlanWhere, planNotFound, type PlanIds } from './owned-plan.ts';

/**
 * Deletes one of an application's plans.
 *
 * No licence key or subscription exists yet, so nothing can still use a plan and the delete
 * always succeeds. When they arrive they will reference plans with ON DELETE RESTRICT: this
 * verb must then turn that foreign-key violation (SQLSTATE 23503) into a 409 telling the owner
 * to archive the plan instead, since keys already sold must keep their plan.
 */
export async function deletePlan({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: PlanIds;
}): Promise<void> {
  const [deleted] = await ctx.db
    .delete(plans)
    .where(ownedPlanWhere(ctx, input))
    .returning({ id: plans.id });
  if (!deleted) throw await planNotFound(ctx, input);
  ctx.log.info({ planId: deleted.id, applicationId: input.applicationId }, 'plan deleted');
}
