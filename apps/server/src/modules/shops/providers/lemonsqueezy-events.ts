import {
  assertHmacHex,
  headerOf,
  idText,
  jsonBodyOf,
  minorUnits,
  refsOf,
  upperCurrency,
} from './hmac-signature.ts';
import { emailText, wholeQuantity } from './stripe-events.ts';
import { ShopEventMalformedError, type ShopEvent, type ShopRequest } from './shop-event.ts';

type Json = Record<string, unknown>;

/**
 * Lemon Squeezy: `X-Signature` is the hex HMAC-SHA256 of the body under the secret the owner
 * chose for the webhook; it carries no timestamp, so there is no replay window to check (a
 * replayed event is the same event, processed once). Lemon Squeezy sends no event id: an
 * event is its name and the object it is about (`order_created:orders:1234`).
 */
export function readLemonSqueezyEvent(request: ShopRequest, secret: string): ShopEvent {
  assertHmacHex('sha256', secret, request.rawBody, headerOf(request, 'x-signature'));
  const body = jsonBodyOf(request) as Json;
  const meta = (body?.meta ?? null) as Json | null;
  const data = (body?.data ?? null) as Json | null;
  const type =
    typeof meta?.event_name === 'string' ? meta.event_name : headerOf(request, 'x-event-name');
  const dataId = idText(data?.id);
  if (!meta || !data || !type || !dataId)
    throw new ShopEventMalformedError('not a Lemon Squeezy event');
  const attributes = (data.attributes ?? {}) as Json;
  const isTest = meta.test_mode === true || attributes.test_mode === true;
  const base = { eventId: `${type}:${String(data.type)}:${dataId}`, type };
  switch (type) {
    case 'order_created': {
      if (attributes.status !== 'paid') return { ...base, kind: 'ignored', refs: [] };
      const item = (attributes.first_order_item ?? {}) as Json;
      const variantId = idText(item.variant_id);
      return {
        ...base,
        kind: 'paid',
        orderId: dataId,
        refs: refsOf(attributes.identifier),
        subscriptionRef: null,
        customerRef: idText(attributes.customer_id),
        buyerEmail: emailText(attributes.user_email),
        items: variantId ? [{ productId: variantId, quantity: wholeQuantity(item.quantity) }] : [],
        amount: minorUnits(attributes.total),
        currency: upperCurrency(attributes.currency),
        isTest,
      };
    }
    case 'subscription_created': {
      const orderId = idText(attributes.order_id);
      if (!orderId) return { ...base, kind: 'ignored', refs: [] };
      return { ...base, kind: 'subscription', orderId, subscriptionRef: dataId, refs: [] };
    }
    case 'subscription_payment_success': {
      const subscription = idText(attributes.subscription_id);
      // The first payment is the order's own (billing_reason initial): only a renewal extends.
      if (attributes.billing_reason !== 'renewal' || !subscription) {
        return { ...base, kind: 'ignored', refs: [] };
      }
      return {
        ...base,
        kind: 'renewal',
        orderId: dataId,
        refs: [],
        subscriptionRef: subscription,
        amount: minorUnits(attributes.total),
        currency: upperCurrency(attributes.currency),
        isTest,
      };
    }
    case 'order_refunded':
      // A partial refund (status partial_refund) leaves the licence alone.
      if (attributes.status === 'partial_refund') return { ...base, kind: 'ignored', refs: [] };
      return { ...base, kind: 'refund', refs: [dataId] };
    case 'subscription_payment_refunded':
      return { ...base, kind: 'refund', refs: [dataId] };
    case 'subscription_expired':
      return { ...base, kind: 'lapse', refs: [dataId] };
    default:
      return { ...base, kind: 'ignored', refs: [] };
  }
}
