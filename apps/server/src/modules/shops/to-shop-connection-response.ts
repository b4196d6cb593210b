import type { ShopConnection } from '@latchkey/contracts';
import type { ShopConnectionRow } from '../../db/schema/index.ts';
import { unsealShopSecret } from './shop-secrets.ts';

/** The connection's URL to paste into the shop; Gumroad's carries its token. */
export function shopWebhookUrl(
  row: Pick<ShopConnectionRow, 'publicId' | 'urlTokenSealed'>,
  origin: string,
  serverSecret: string,
): string {
  const url = `${origin}/api/shops/${row.publicId}`;
  return row.urlTokenSealed
    ? `${url}?token=${unsealShopSecret(row.urlTokenSealed, serverSecret)}`
    : url;
}

export function toShopConnectionResponse(
  row: ShopConnectionRow,
  options: { origin: string; serverSecret: string; ordersNeedingMapping: number },
): ShopConnection {
  return {
    id: row.id,
    publicId: row.publicId,
    provider: row.provider,
    name: row.name,
    testMode: row.isTestMode,
    webhookUrl: shopWebhookUrl(row, options.origin, options.serverSecret),
    products: row.products,
    secretHint: row.secretHint,
    hasApiKey: row.apiKeySealed !== null,
    ordersNeedingMapping: options.ordersNeedingMapping,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
