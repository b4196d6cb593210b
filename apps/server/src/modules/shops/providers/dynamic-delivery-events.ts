import {
  assertHmacHex,
  headerOf,
  idText,
  jsonBodyOf,
  minorUnits,
  upperCurrency,
} from './hmac-signature.ts';
import { emailText, wholeQuantity } from './stripe-events.ts';
import { ShopEventMalformedError, type ShopEvent, type ShopRequest } from './shop-event.ts';

type Json = Record<string, unknown>;

/**
 * Sellix: `X-Sellix-Signature`, the hex HMAC-SHA512 of the body under the shop's webhook
 * secret. A dynamic product is asked for once, synchronously (`product:dynamic`, the product
 * in `X-Sellix-Product-Id`), and the answer's text is what the buyer receives; `order:paid`
 * of the same order and product finds it minted already. No timestamp is signed, and none
 * is needed: an order is minted once, and asked again it answers the same keys.
 */
export function readSellixEvent(request: ShopRequest, secret: string): ShopEvent {
  assertHmacHex('sha512', secret, request.rawBody, headerOf(request, 'x-sellix-signature'));
  const body = jsonBodyOf(request) as Json;
  const type = typeof body?.event === 'string' ? body.event : headerOf(request, 'x-sellix-event');
  const order = (body?.data ?? null) as Json | null;
  const orderId = idText(order?.uniqid);
  if (!type || !order || !orderId) throw new ShopEventMalformedError('not a Sellix event');
  if (type === 'order:disputed') {
    return { eventId: `${type}:${orderId}`, type, kind: 'chargeback', refs: [orderId] };
  }
  if (type !== 'product:dynamic' && type !== 'order:paid') {
    return { eventId: `${type}:${orderId}`, type, kind: 'ignored', refs: [] };
  }
  const productId = headerOf(request, 'x-sellix-product-id') || idText(order.product_id);
  const cart = Array.isArray(order.cart) ? (order.cart as Json[]) : [];
  const cartLine = cart.find((line) => idText(line.uniqid ?? line.product_id) === productId);
  const quantity = wholeQuantity(cartLine?.unit_quantity ?? order.quantity);
  return {
    eventId: `${type}:${orderId}:${productId ?? ''}`,
    type,
    kind: 'paid',
    orderId,
    refs: [],
    subscriptionRef: null,
    customerRef: null,
    buyerEmail: emailText(order.customer_email),
    items: productId ? [{ productId, quantity }] : [],
    amount: minorUnits(order.total, { isDecimal: true }),
    currency: upperCurrency(order.currency),
    isTest: false,
  };
}

/**
 * SellApp: the header `signature`, the hex HMAC-SHA256 of the body under the store's webhook
 * secret. Its dynamic webhook posts the paid order (`data`, or the order itself), and the
 * answer's text is what the buyer receives. The product is the variant (`product_variant_id`,
 * else `listing.id` / `product_id`); the address `customer_information.email`.
 */
export function readSellAppEvent(request: ShopRequest, secret: string): ShopEvent {
  assertHmacHex('sha256', secret, request.rawBody, headerOf(request, 'signature'));
  const body = jsonBodyOf(request) as Json;
  const order = (typeof body?.data === 'object' && body.data !== null ? body.data : body) as Json;
  const type = typeof body?.event === 'string' ? body.event : 'dynamic';
  const orderId = idText(order?.id) ?? idText(order?.invoice_id);
  if (!orderId) throw new ShopEventMalformedError('not a SellApp order');
  if (type === 'order.disputed') {
    return { eventId: `${type}:${orderId}`, type, kind: 'chargeback', refs: [orderId] };
  }
  if (type !== 'dynamic' && type !== 'order.completed') {
    return { eventId: `${type}:${orderId}`, type, kind: 'ignored', refs: [] };
  }
  const customer = (order.customer_information ?? {}) as Json;
  const productId =
    idText(order.product_variant_id) ??
    idText((order.listing as Json | undefined)?.id) ??
    idText(order.product_id);
  return {
    eventId: `${type}:${orderId}:${productId ?? ''}`,
    type,
    kind: 'paid',
    orderId,
    refs: [],
    subscriptionRef: null,
    customerRef: null,
    buyerEmail: emailText(customer.email) ?? emailText(order.email),
    items: productId ? [{ productId, quantity: wholeQuantity(order.quantity) }] : [],
    amount: minorUnits(order.total ?? order.price, { isDecimal: true }),
    currency: upperCurrency(order.currency),
    isTest: false,
  };
}
