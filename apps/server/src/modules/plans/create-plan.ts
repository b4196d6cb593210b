import type { CreatePlanInput, Plan as PlanResponse } from '@latchkey/contracts';
import { plans } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { recordOwnerWrite } from '../../audit/record-owner-write.ts';
import { loadOwnedApplication } from '../../ownership/load-owned-application.ts';
import { toPlanWriteError } from './owned-plan.ts';
import { toPlanResponse } from './to-plan-response.ts';

/**
 * Adds a plan to one of the owner's applications. The contract has already trimmed the
 * texts and sorted the entitlements; a name the application already has (in any case) is
 * refused by the unique index, so two concurrent creations cannot both win. The audit entry
 * is written in the same transaction.
 */
export async function createPlan({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: { applicationId: number; plan: CreatePlanInput };
}): Promise<PlanResponse> {
  // Another owner's application is indistinguishable from a missing one (404).
  const application = await loadOwnedApplication({ ctx, input });
  const now = ctx.clock.now();
  let plan;
  try {
    plan = await ctx.db.transaction(async (tx) => {
      const [created] = await tx
        .insert(plans)
        .values({
          applicationId: application.id,
          name: input.plan.name,
          durationDays: input.plan.durationDays,
          entitlements: input.plan.entitlements,
          description: input.plan.description,
          maxDevices: input.plan.maxDevices,
          updatesForDays: input.plan.updatesForDays,
          updatesFrom: input.plan.updatesFrom,
          meters: input.plan.meters,
          isFloating: input.plan.floating,
          seats: input.plan.seats,
          leaseMinutes: input.plan.leaseMinutes,
          maxBorrowDays: input.plan.maxBorrowDays,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      if (!created) throw new Error('insert returned no row');
      await recordOwnerWrite({
        ctx: { ...ctx, db: tx },
        input: {
          action: 'plan_created',
          application: { id: application.id, name: application.name },
          target: { kind: 'plan', id: created.id, label: created.name },
          change: input.plan,
        },
      });
      return created;
    });
  } catch (error) {
    throw toPlanWriteError(error);
  }
  ctx.log.info({ planId: plan.id, applicationId: application.id }, 'plan created');
  return toPlanResponse(plan);
}
