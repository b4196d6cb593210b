import { and, eq, inArray } from 'drizzle-orm';
import { PLAN_NOT_FOUND } from '@latchkey/contracts';
import { licenseKeys, plans } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { notFound } from '../../lib/errors.ts';
import {
  loadOwnedApplication,
  ownedApplicationIds,
} from '../applications/load-owned-application.ts';
import { licenseNotFound, ownedLicenseWhere, type LicenseIds } from './owned-license.ts';

/**
 * Deletes one key. A used key's subscription stays as it is: deleting is forgetting the key,
 * not taking back what it granted (that is what a ban does).
 */
export async function deleteLicense({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: LicenseIds;
}): Promise<void> {
  const [deleted] = await ctx.db
    .delete(licenseKeys)
    .where(ownedLicenseWhere(ctx, input))
    .returning({ id: licenseKeys.id });
  if (!deleted) throw await licenseNotFound(ctx, input);
  ctx.log.info(
    { licenseId: deleted.id, applicationId: input.applicationId },
    'licence key deleted',
  );
}

/**
 * Deletes every unused key of one plan (those past their redeem-by date too), in one
 * statement; answers how many. The console states the count before the owner confirms.
 */
export async function deleteUnusedLicenses({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: { applicationId: number; planId: string };
}): Promise<number> {
  const application = await loadOwnedApplication({ ctx, input });
  const [plan] = await ctx.db
    .select({ id: plans.id })
    .from(plans)
    .where(and(eq(plans.id, input.planId), eq(plans.applicationId, application.id)));
  if (!plan) throw notFound(PLAN_NOT_FOUND);
  const deleted = await ctx.db
    .delete(licenseKeys)
    .where(
      and(
        eq(licenseKeys.applicationId, application.id),
        inArray(licenseKeys.applicationId, ownedApplicationIds(ctx, application.id)),
        eq(licenseKeys.planId, plan.id),
        eq(licenseKeys.state, 'unused'),
      ),
    )
    .returning({ id: licenseKeys.id });
  ctx.log.info(
    { applicationId: application.id, planId: plan.id, count: deleted.length },
    'unused licence keys deleted',
  );
  return deleted.length;
}
