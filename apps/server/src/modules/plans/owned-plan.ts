import { and, eq, inArray } from 'drizzle-orm';
import { FLOATING_NEEDS_SEATS, PLAN_NAME_TAKEN, PLAN_NOT_FOUND } from '@latchkey/contracts';
import { plans } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { isCheckViolation, isUniqueViolation } from '../../lib/database-errors.ts';
import type { AppError } from '../../lib/errors.ts';
import { notFound, refusedField } from '../../lib/errors.ts';
import {
  loadOwnedApplication,
  ownedApplicationIds,
} from '../../ownership/load-owned-application.ts';

export interface PlanIds {
  applicationId: number;
  planId: string;
}

/**
 * The condition every statement on one plan carries: the plan, in that application, and
 * that application belongs to the signed-in owner. A plan id of another application (even
 * the same owner's) matches nothing.
 */
export function ownedPlanWhere(ctx: OwnerContext, ids: PlanIds) {
  return and(
    eq(plans.id, ids.planId),
    eq(plans.applicationId, ids.applicationId),
    // The trial plan is the server's, kept in step with the application's trial settings.
    eq(plans.isTrial, false),
    inArray(plans.applicationId, ownedApplicationIds(ctx, ids.applicationId)),
  );
}

/** The 404 to give when a scoped statement matched nothing: which of the two is missing. */
export async function planNotFound(ctx: OwnerContext, ids: PlanIds): Promise<AppError> {
  // Throws 'Application not found' itself when the application is not the owner's.
  await loadOwnedApplication({ ctx, input: { applicationId: ids.applicationId } });
  return notFound(PLAN_NOT_FOUND);
}

const PLAN_NAME_INDEX = 'plans_application_name_idx';

/** A failed write as the owner should see it: a name the application already has is a 409. */
export function toPlanWriteError(error: unknown): unknown {
  if (isUniqueViolation(error, PLAN_NAME_INDEX))
    return refusedField('CONFLICT', 'name', PLAN_NAME_TAKEN);
  // A change that leaves a floating plan without seats (floating on, seats not given).
  if (isCheckViolation(error, 'plans_floating_has_seats'))
    return refusedField('BAD_REQUEST', 'seats', FLOATING_NEEDS_SEATS);
  return error;
}
