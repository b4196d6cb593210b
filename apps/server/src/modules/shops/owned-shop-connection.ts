import { and, eq, inArray, isNull } from 'drizzle-orm';
import { SHOP_CONNECTION_NOT_FOUND } from '@latchkey/contracts';
import { shopConnections, type ShopConnectionRow } from '../../db/schema/index.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { notFound } from '../../lib/errors.ts';
import {
  loadOwnedApplication,
  ownedApplicationIds,
} from '../../ownership/load-owned-application.ts';

export interface ShopConnectionIds {
  applicationId: number;
  connectionId: string;
}

/** The condition every statement on one of the owner's (not deleted) connections carries. */
export function ownedShopConnectionWhere(ctx: OwnerContext, input: ShopConnectionIds) {
  return and(
    eq(shopConnections.id, input.connectionId),
    eq(shopConnections.applicationId, input.applicationId),
    isNull(shopConnections.deletedAt),
    inArray(shopConnections.applicationId, ownedApplicationIds(ctx, input.applicationId)),
  );
}

/**
 * The application first, as every route under it answers: another owner's application is
 * "Application not found" whatever follows it, and their connection indistinguishable from one
 * that does not exist.
 */
export async function loadOwnedShopConnection(
  ctx: OwnerContext,
  input: ShopConnectionIds,
): Promise<ShopConnectionRow> {
  await loadOwnedApplication({ ctx, input });
  const [row] = await ctx.db
    .select()
    .from(shopConnections)
    .where(ownedShopConnectionWhere(ctx, input));
  if (!row) throw notFound(SHOP_CONNECTION_NOT_FOUND);
  return row;
}
