import { readGumroadEvent } from './gumroad-events.ts';
import { readLemonSqueezyEvent } from './lemonsqueezy-events.ts';
import { readPaddleEvent } from './paddle-events.ts';
import { readSellAppEvent, readSellixEvent } from './dynamic-delivery-events.ts';
import { readStripeEvent } from './stripe-events.ts';
import {
  ShopSignatureError,
  type ShopEvent,
  type ShopRequest,
  type ShopSecrets,
} from './shop-event.ts';

/**
 * Authenticates a delivery by its provider's scheme on the raw bytes, then reads what it
 * means. Throws ShopSignatureError before anything of the body is parsed when the signature
 * (or Gumroad's URL token) is missing, stale or wrong.
 */
export async function readShopEvent(
  request: ShopRequest,
  secrets: ShopSecrets,
): Promise<ShopEvent> {
  if (secrets.provider === 'gumroad') {
    if (!secrets.urlToken) throw new ShopSignatureError('no URL token configured');
    return readGumroadEvent(request, secrets.urlToken);
  }
  const { secret } = secrets;
  if (!secret) throw new ShopSignatureError('no secret configured');
  switch (secrets.provider) {
    case 'stripe':
      return readStripeEvent(request, secret);
    case 'lemonsqueezy':
      return readLemonSqueezyEvent(request, secret);
    case 'paddle':
      return readPaddleEvent(request, secret);
    case 'sellix':
      return readSellixEvent(request, secret);
    case 'sellapp':
      return readSellAppEvent(request, secret);
  }
}
