import {
  SHOP_API_KEY_STRIPE_ONLY,
  SHOP_SECRET_NOT_USED,
  shopProvidersWithApiKey,
  type ShopConnection,
  type UpdateShopConnectionInput,
} from '@latchkey/contracts';
import { shopConnections } from '../../db/schema/index.ts';
import { recordOwnerWrite } from '../../audit/record-owner-write.ts';
import { badRequest } from '../../lib/errors.ts';
import { assertMappedPlans } from './assert-mapped-plans.ts';
import { countOrdersNeedingMapping } from './list-shop-connections.ts';
import {
  loadOwnedShopConnection,
  ownedShopConnectionWhere,
  type ShopConnectionIds,
} from './owned-shop-connection.ts';
import type { ShopOwnerContext } from './shop-context.ts';
import { newShopToken, sealShopSecret, shopSecretHintOf } from './shop-secrets.ts';
import { toShopConnectionResponse } from './to-shop-connection-response.ts';

/**
 * Changes a connection: its name, test mode, product mapping, a new signing secret (the shop
 * rotated it), its API key, or for Gumroad a new URL token (the old URL stops at once).
 * Orders already received keep what they minted; a newly mapped product's waiting orders are
 * processed by the owner (POST …/orders/:orderId/process), not silently here.
 */
export async function updateShopConnection({
  ctx,
  input,
}: {
  ctx: ShopOwnerContext;
  input: ShopConnectionIds & { request: UpdateShopConnectionInput };
}): Promise<ShopConnection> {
  const current = await loadOwnedShopConnection(ctx, input);
  const { request } = input;
  if (current.provider === 'gumroad' && request.secret)
    throw badRequest(`secret: ${SHOP_SECRET_NOT_USED}`);
  if (request.apiKey && !shopProvidersWithApiKey.includes(current.provider)) {
    throw badRequest(`apiKey: ${SHOP_API_KEY_STRIPE_ONLY}`);
  }
  if (request.products) await assertMappedPlans(ctx.db, current.applicationId, request.products);
  const now = ctx.clock.now();
  const row = await ctx.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(shopConnections)
      .set({
        ...(request.name === undefined ? {} : { name: request.name }),
        ...(request.testMode === undefined ? {} : { isTestMode: request.testMode }),
        ...(request.products === undefined ? {} : { products: request.products }),
        ...(request.secret
          ? {
              secretSealed: sealShopSecret(request.secret, ctx.serverSecret),
              secretHint: shopSecretHintOf(request.secret),
            }
          : {}),
        ...(request.apiKey === undefined
          ? {}
          : {
              apiKeySealed:
                request.apiKey === null ? null : sealShopSecret(request.apiKey, ctx.serverSecret),
            }),
        ...(request.rotateUrlToken && current.provider === 'gumroad'
          ? { urlTokenSealed: sealShopSecret(newShopToken(), ctx.serverSecret) }
          : {}),
        updatedAt: now,
      })
      .where(ownedShopConnectionWhere(ctx, input))
      .returning();
    if (!updated) throw new Error('update returned no row');
    await recordOwnerWrite({
      ctx: { ...ctx, db: tx },
      input: {
        action: 'shop_connection_updated',
        application: { id: current.applicationId },
        target: { kind: 'shop_connection', id: updated.id, label: updated.name },
        change: request,
      },
    });
    return updated;
  });
  return toShopConnectionResponse(row, {
    origin: ctx.publicOrigin,
    serverSecret: ctx.serverSecret,
    ordersNeedingMapping: await countOrdersNeedingMapping(ctx.db, row.id),
  });
}
