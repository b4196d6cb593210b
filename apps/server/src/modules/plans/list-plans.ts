import { and, asc, eq, sql } from 'drizzle-orm';
import type { Plan as PlanResponse } from '@latchkey/contracts';
import { plans } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { loadOwnedApplication } from '../../ownership/load-owned-application.ts';
import { toPlanResponse } from './to-plan-response.ts';

/**
 * An application's plans, archived ones included, by name (as the unique index orders them).
 * An application has a handful of plans, so the list is not paged.
 */
export async function listPlans({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: { applicationId: number };
}): Promise<PlanResponse[]> {
  // Another owner's application is indistinguishable from a missing one (404).
  const application = await loadOwnedApplication({ ctx, input });
  const rows = await ctx.db
    .select()
    .from(plans)
    .where(and(eq(plans.applicationId, application.id), eq(plans.isTrial, false)))
    .orderBy(sql`lower(${plans.name})`, asc(plans.name), asc(plans.id));
  return rows.map(toPlanResponse);
}
