import {
  SHOP_API_KEY_STRIPE_ONLY,
  SHOP_SECRET_NOT_USED,
  shopProvidersWithApiKey,
  SHOP_SECRET_REQUIRED,
  shopProvidersWithIssuedSecret,
  type CreatedShopConnection,
  type CreateShopConnectionInput,
} from '@latchkey/contracts';
import { shopConnections } from '../../db/schema/index.ts';
import { recordOwnerWrite } from '../../audit/record-owner-write.ts';
import { badRequest } from '../../lib/errors.ts';
import { loadOwnedApplication } from '../../ownership/load-owned-application.ts';
import { assertMappedPlans } from './assert-mapped-plans.ts';
import type { ShopOwnerContext } from './shop-context.ts';
import { newShopPublicId, newShopToken, sealShopSecret, shopSecretHintOf } from './shop-secrets.ts';
import { toShopConnectionResponse } from './to-shop-connection-response.ts';

/**
 * Connects a shop to an application. Stripe, Paddle, Sellix and SellApp issue the signing
 * secret, so the owner pastes it; Lemon Squeezy's is generated when none is given (and
 * answered once, to paste into Lemon Squeezy); Gumroad signs nothing, so its URL gets a
 * random token instead. The audit entry never holds a secret.
 */
export async function createShopConnection({
  ctx,
  input,
}: {
  ctx: ShopOwnerContext;
  input: { applicationId: number; request: CreateShopConnectionInput };
}): Promise<CreatedShopConnection> {
  const application = await loadOwnedApplication({ ctx, input });
  const { request } = input;
  if (request.provider === 'gumroad' && request.secret)
    throw badRequest(`secret: ${SHOP_SECRET_NOT_USED}`);
  if (shopProvidersWithIssuedSecret.includes(request.provider) && !request.secret) {
    throw badRequest(`secret: ${SHOP_SECRET_REQUIRED}`);
  }
  if (request.apiKey && !shopProvidersWithApiKey.includes(request.provider)) {
    throw badRequest(`apiKey: ${SHOP_API_KEY_STRIPE_ONLY}`);
  }
  await assertMappedPlans(ctx.db, application.id, request.products);
  const generatedSecret =
    request.provider === 'lemonsqueezy' && !request.secret ? newShopToken() : null;
  const secret = request.provider === 'gumroad' ? null : (request.secret ?? generatedSecret);
  const now = ctx.clock.now();
  const row = await ctx.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(shopConnections)
      .values({
        applicationId: application.id,
        publicId: newShopPublicId(),
        provider: request.provider,
        name: request.name,
        isTestMode: request.testMode,
        secretSealed: secret === null ? null : sealShopSecret(secret, ctx.serverSecret),
        secretHint: secret === null ? null : shopSecretHintOf(secret),
        urlTokenSealed:
          request.provider === 'gumroad' ? sealShopSecret(newShopToken(), ctx.serverSecret) : null,
        apiKeySealed: request.apiKey ? sealShopSecret(request.apiKey, ctx.serverSecret) : null,
        products: request.products,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!created) throw new Error('insert returned no row');
    await recordOwnerWrite({
      ctx: { ...ctx, db: tx },
      input: {
        action: 'shop_connection_created',
        application: { id: application.id, name: application.name },
        target: { kind: 'shop_connection', id: created.id, label: created.name },
        change: request,
      },
    });
    return created;
  });
  ctx.log.info({ connectionId: row.id, provider: row.provider }, 'shop connection created');
  return {
    ...toShopConnectionResponse(row, {
      origin: ctx.publicOrigin,
      serverSecret: ctx.serverSecret,
      ordersNeedingMapping: 0,
    }),
    secret: generatedSecret,
  };
}
