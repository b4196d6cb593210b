import { PLAN_IN_USE } from '@latchkey/contracts';
import { plans } from '../../db/schema/index.ts';
import { isForeignKeyViolation } from '../../lib/database-errors.ts';
import { AppError } from '../../lib/errors.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { recordOwnerWrite } from '../../audit/record-owner-write.ts';
import { ownedPlanWhere, planNotFound, type PlanIds } from './owned-plan.ts';

/**
 * Deletes one of an application's plans. Licence keys and subscriptions reference their plan
 * (NO ACTION): a plan still in use makes the delete fail with a foreign-key violation, which
 * becomes a 409 telling the owner to archive it instead, since keys already sold keep their
 * plan. The database decides, so a key generated a moment before cannot slip through. The
 * audit entry is written in the same transaction.
 */
const PLAN_REFERENCES = ['license_keys_plan_id_plans_id_fk', 'subscriptions_plan_id_plans_id_fk'];

export async function deletePlan({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: PlanIds;
}): Promise<void> {
  let deleted;
  try {
    deleted = await ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .delete(plans)
        .where(ownedPlanWhere(ctx, input))
        .returning({ id: plans.id, name: plans.name });
      if (!row) return undefined;
      await recordOwnerWrite({
        ctx: { ...ctx, db: tx },
        input: {
          action: 'plan_deleted',
          application: { id: input.applicationId },
          target: { kind: 'plan', id: row.id, label: row.name },
        },
      });
      return row;
    });
  } catch (error) {
    if (PLAN_REFERENCES.some((constraint) => isForeignKeyViolation(error, constraint))) {
      throw new AppError('CONFLICT', PLAN_IN_USE);
    }
    throw error;
  }
  if (!deleted) throw await planNotFound(ctx, input);
  ctx.log.info({ planId: deleted.id, applicationId: input.applicationId }, 'plan deleted');
}
