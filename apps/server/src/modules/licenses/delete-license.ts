import { and, eq, inArray } from 'drizzle-orm';
import { PLAN_NOT_FOUND } from '@latchkey/contracts';
import { licenseKeys, plans } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { notFound } from '../../lib/errors.ts';
import { recordOwnerWrite } from '../../audit/record-owner-write.ts';
import {
  loadOwnedApplication,
  ownedApplicationIds,
} from '../../ownership/load-owned-application.ts';
import { licenseNotFound, ownedLicenseWhere, type LicenseIds } from './owned-license.ts';

/**
 * Deletes one key, with its audit entry in the same transaction. A used key's subscription
 * stays as it is: deleting is forgetting the key, not taking back what it granted (that is
 * what a ban does).
 */
export async function deleteLicense({
  ctx,
  input,
}: {
  ctx: OwnerContext;
  input: LicenseIds;
}): Promise<void> {
  const deleted = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .delete(licenseKeys)
      .where(ownedLicenseWhere(ctx, input))
      .returning({ id: licenseKeys.id, display: licenseKeys.display });
    if (!row) return undefined;
    await recordOwnerWrite({
      ctx: { ...ctx, db: tx },
      input: {
        action: 'license_key_deleted',
        application: { id: input.applicationId },
        target: { kind: 'license_key', id: row.id, label: row.display },
      },
    });
    return row;
  });
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
    .select({ id: plans.id, name: plans.name })
    .from(plans)
    .where(and(eq(plans.id, input.planId), eq(plans.applicationId, application.id)));
  if (!plan) throw notFound(PLAN_NOT_FOUND);
  const deleted = await ctx.db.transaction(async (tx) => {
    const rows = await tx
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
    // Nothing deleted is nothing written: no entry.
    if (rows.length > 0) {
      await recordOwnerWrite({
        ctx: { ...ctx, db: tx },
        input: {
          action: 'unused_license_keys_deleted',
          application: { id: application.id, name: application.name },
          target: { kind: 'plan', id: plan.id, label: plan.name },
          change: { deleted: rows.length },
        },
      });
    }
    return rows;
  });
  ctx.log.info(
    { applicationId: application.id, planId: plan.id, count: deleted.length },
    'unused licence keys deleted',
  );
  return deleted.length;
}
