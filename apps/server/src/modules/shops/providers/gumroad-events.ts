import { constantTimeEqual } from '../../../lib/tokens.ts';
import { idText, minorUnits, upperCurrency } from './hmac-signature.ts';
import { emailText, wholeQuantity } from './stripe-events.ts';
import {
  ShopEventMalformedError,
  ShopSignatureError,
  type ShopEvent,
  type ShopRequest,
} from './shop-event.ts';

/**
 * Gumroad's Ping: a form POST that nothing signs, so the URL itself is the credential: it
 * carries a random token (256 bits) the owner can rotate, compared in constant time. Gumroad
 * sends no event id either: a sale is processed once by its `sale_id` (a refund and a dispute
 * of it are events of their own), so a repeated ping changes nothing.
 */
export function readGumroadEvent(request: ShopRequest, urlToken: string): ShopEvent {
  if (!request.urlToken || !constantTimeEqual(request.urlToken, urlToken)) {
    throw new ShopSignatureError('the URL token does not match');
  }
  const form = new URLSearchParams(request.rawBody.toString('utf8'));
  const field = (name: string) => form.get(name);
  const saleId = idText(field('sale_id'));
  const resource = field('resource_name') ?? 'sale';
  const subscription = idText(field('subscription_id'));
  if (resource === 'cancellation' || resource === 'subscription_ended') {
    if (!subscription) throw new ShopEventMalformedError('no subscription_id');
    return {
      eventId: `${resource}:${subscription}`,
      type: resource,
      kind: 'lapse',
      refs: [subscription],
    };
  }
  if (!saleId) throw new ShopEventMalformedError('not a Gumroad ping');
  if (field('disputed') === 'true' || resource === 'dispute') {
    return { eventId: `dispute:${saleId}`, type: 'dispute', kind: 'chargeback', refs: [saleId] };
  }
  if (field('refunded') === 'true' || resource === 'refund') {
    return { eventId: `refund:${saleId}`, type: 'refund', kind: 'refund', refs: [saleId] };
  }
  const money = {
    amount: minorUnits(field('price')),
    currency: upperCurrency(field('currency')),
    isTest: field('test') === 'true',
  };
  if (field('is_recurring_charge') === 'true' && subscription) {
    return {
      eventId: `sale:${saleId}`,
      type: 'sale',
      kind: 'renewal',
      orderId: saleId,
      refs: [],
      subscriptionRef: subscription,
      ...money,
    };
  }
  const productId = idText(field('product_id'));
  return {
    eventId: `sale:${saleId}`,
    type: 'sale',
    kind: 'paid',
    orderId: saleId,
    refs: [],
    subscriptionRef: subscription,
    customerRef: null,
    buyerEmail: emailText(field('email')),
    items: productId ? [{ productId, quantity: wholeQuantity(field('quantity')) }] : [],
    ...money,
  };
}
