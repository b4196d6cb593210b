import type { Plan as PlanResponse } from '@latchkey/contracts';
import type { Plan } from '../../db/schema/index.ts';

/** The owner-API view of a plan. */
export function toPlanResponse(plan: Plan): PlanResponse {
  return {
    id: plan.id,
    applicationId: plan.applicationId,
    name: plan.name,
    durationDays: plan.durationDays,
    entitlements: plan.entitlements,
    description: plan.description,
    maxDevices: plan.maxDevices,
    updatesForDays: plan.updatesForDays,
    updatesFrom: plan.updatesFrom,
    meters: plan.meters,
    floating: plan.isFloating,
    seats: plan.seats,
    leaseMinutes: plan.leaseMinutes,
    maxBorrowDays: plan.maxBorrowDays,
    archived: plan.isArchived,
    createdAt: plan.createdAt.toISOString(),
    updatedAt: plan.updatedAt.toISOString(),
  };
}
