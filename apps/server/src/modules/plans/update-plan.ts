import type { Plan as PlanResponse, UpdatePlanInput } from '@latchkey/contracts';
import { plans } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { recordOwnerWrite } from '../../audit/record-owner-write.ts';
import type { ApplicationEvents } from '../../events/application-events.ts';
import { loadOwnedApplication } from '../../ownership/load-owned-application.ts';
import { ownedPlanWhere, planNotFound, toPlanWriteError, type PlanIds } from './owned-plan.ts';
import { toPlanResponse } from './to-plan-response.ts';

/**
 * Applies the given changes (absent fields stay as they are). Archiving is one of them: an
 * archived plan keeps its keys and subscriptions but gets no new keys, and can be restored.
 * A changed name or entitlements reach the holders' next verify at once. The audit entry is
 * written in the same transaction; the change is announced after it commits.
 */
export async function updatePlan({
  ctx,
  input,
}: {
  ctx: OwnerContext & { applicationEvents: ApplicationEvents };
  input: PlanIds & { changes: UpdatePlanInput };
}): Promise<PlanResponse> {
  const { changes } = input;
  let plan;
  try {
    plan = await ctx.db.transaction(async (tx) => {
      const [updated] = await tx
        .update(plans)
        .set({
          name: changes.name,
          durationDays: changes.durationDays,
          entitlements: changes.entitlements,
          description: changes.description,
          maxDevices: changes.maxDevices,
          updatesForDays: changes.updatesForDays,
          updatesFrom: changes.updatesFrom,
          meters: changes.meters,
          isFloating: changes.floating,
          seats: changes.seats,
          leaseMinutes: changes.leaseMinutes,
          maxBorrowDays: changes.maxBorrowDays,
          isArchived: changes.archived,
          updatedAt: ctx.clock.now(),
        })
        .where(ownedPlanWhere(ctx, input))
        .returning();
      if (!updated) return undefined;
      await recordOwnerWrite({
        ctx: { ...ctx, db: tx },
        input: {
          action: 'plan_updated',
          application: { id: input.applicationId },
          target: { kind: 'plan', id: updated.id, label: updated.name },
          change: changes,
        },
      });
      return updated;
    });
  } catch (error) {
    throw toPlanWriteError(error);
  }
  if (!plan) throw await planNotFound(ctx, input);
  ctx.log.info({ planId: plan.id, applicationId: plan.applicationId }, 'plan updated');
  // Its name and entitlements are in the client API's cached standing of every holder: the
  // application's cached users drop them, here and in every other instance, before the answer.
  if (changes.name !== undefined || changes.entitlements !== undefined) {
    const application = await loadOwnedApplication({ ctx, input });
    await ctx.applicationEvents.emitChange(
      { kind: 'updated', applicationId: application.id, apiKey: application.apiKey },
      ctx.log,
    );
  }
  return toPlanResponse(plan);
}
