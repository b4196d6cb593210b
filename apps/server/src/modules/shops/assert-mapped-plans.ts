import { and, eq, inArray } from 'drizzle-orm';
import { SHOP_PLAN_NOT_FOUND, type ShopProduct } from '@latchkey/contracts';
import type { Database } from '../../db/client.ts';
import { plans } from '../../db/schema/index.ts';
import { badRequest } from '../../lib/errors.ts';

/** Every mapped plan must be one of the application's: a mapping can never mint elsewhere. */
export async function assertMappedPlans(
  db: Database,
  applicationId: number,
  products: readonly ShopProduct[],
): Promise<void> {
  const planIds = [...new Set(products.map((product) => product.planId))];
  if (planIds.length === 0) return;
  const found = await db
    .select({ id: plans.id })
    .from(plans)
    .where(
      and(
        eq(plans.applicationId, applicationId),
        eq(plans.isTrial, false),
        inArray(plans.id, planIds),
      ),
    );
  if (found.length !== planIds.length) throw badRequest(`products: ${SHOP_PLAN_NOT_FOUND}`);
}
