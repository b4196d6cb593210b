import { shopConnections } from '../../db/schema/index.ts';
import { recordOwnerWrite } from '../../audit/record-owner-write.ts';
import {
  loadOwnedShopConnection,
  ownedShopConnectionWhere,
  type ShopConnectionIds,
} from './owned-shop-connection.ts';
import type { ShopOwnerContext } from './shop-context.ts';

/**
 * Disconnects a shop: its URL answers 404 from now on (the shop's retries stop), its secrets
 * are dropped, and its orders and their keys stay, so nothing sold is lost with it.
 */
export async function deleteShopConnection({
  ctx,
  input,
}: {
  ctx: ShopOwnerContext;
  input: ShopConnectionIds;
}): Promise<void> {
  const current = await loadOwnedShopConnection(ctx, input);
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(shopConnections)
      .set({
        deletedAt: now,
        secretSealed: null,
        urlTokenSealed: null,
        apiKeySealed: null,
        updatedAt: now,
      })
      .where(ownedShopConnectionWhere(ctx, input));
    await recordOwnerWrite({
      ctx: { ...ctx, db: tx },
      input: {
        action: 'shop_connection_deleted',
        application: { id: current.applicationId },
        target: { kind: 'shop_connection', id: current.id, label: current.name },
      },
    });
  });
  ctx.log.info({ connectionId: current.id }, 'shop connection deleted');
}
