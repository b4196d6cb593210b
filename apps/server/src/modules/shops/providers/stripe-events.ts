import { z } from 'zod';
import { idText, minorUnits, refsOf, upperCurrency, headerOf } from './hmac-signature.ts';
import {
  ShopEventMalformedError,
  ShopSignatureError,
  type ShopEvent,
  type ShopLineItem,
  type ShopRequest,
} from './shop-event.ts';

/** Stripe's own default: an event signed more than five minutes before it arrives is refused. */
export const STRIPE_TOLERANCE_SECONDS = 300;

/**
 * Where a Checkout Session names what was bought without an API call: metadata set on the
 * Payment Link or the session (`latchkey_product`, optionally `latchkey_quantity`). A
 * session's webhook carries no line items.
 */
export const STRIPE_PRODUCT_METADATA = 'latchkey_product';
export const STRIPE_QUANTITY_METADATA = 'latchkey_quantity';

const objectOf = z.looseObject({ id: z.unknown() });
type StripeObject = Record<string, unknown>;

/**
 * Verifies a Stripe delivery with Stripe's own library (`Stripe-Signature`: `t=` and `v1=`, an
 * HMAC-SHA256 of `{t}.{body}`, compared in constant time, within five minutes of our clock)
 * and reads what it means for an order. Loaded on first use: most servers never sell through
 * Stripe and should not pay for loading its library at start-up.
 */
export async function readStripeEvent(request: ShopRequest, secret: string): Promise<ShopEvent> {
  const { default: Stripe } = await import('stripe');
  let event: { id: string; type: string; livemode: boolean; data: { object: unknown } };
  try {
    event = Stripe.webhooks.constructEvent(
      request.rawBody,
      headerOf(request, 'stripe-signature'),
      secret,
      STRIPE_TOLERANCE_SECONDS,
      undefined,
      request.receivedAtSeconds * 1000,
    );
  } catch (error) {
    if (error instanceof Stripe.errors.StripeSignatureVerificationError) {
      throw new ShopSignatureError(error.message);
    }
    throw new ShopEventMalformedError('not a Stripe event');
  }
  const parsed = objectOf.safeParse(event.data?.object);
  if (!parsed.success || typeof event.id !== 'string' || typeof event.type !== 'string') {
    throw new ShopEventMalformedError('not a Stripe event');
  }
  return meaningOf(event.id, event.type, !event.livemode, parsed.data);
}

function meaningOf(
  eventId: string,
  type: string,
  isTest: boolean,
  object: StripeObject,
): ShopEvent {
  const base = { eventId, type };
  switch (type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      // A delayed payment method completes the session unpaid; its money arrives with
      // async_payment_succeeded, which carries the same session.
      if (object.payment_status === 'unpaid') return { ...base, kind: 'ignored', refs: [] };
      const details = (object.customer_details ?? {}) as StripeObject;
      return {
        ...base,
        kind: 'paid',
        orderId: idText(object.id) ?? '',
        refs: refsOf(object.payment_intent, object.invoice),
        subscriptionRef: idText(object.subscription),
        customerRef: idText(object.customer),
        buyerEmail: emailText(details.email) ?? emailText(object.customer_email),
        items: sessionItems(object),
        amount: minorUnits(object.amount_total),
        currency: upperCurrency(object.currency),
        isTest,
      };
    }
    case 'invoice.paid': {
      // The first invoice of a subscription is its checkout's (subscription_create): only a
      // cycle is a renewal.
      const subscription = invoiceSubscription(object);
      if (subscription === null) return { ...base, kind: 'ignored', refs: [] };
      if (object.billing_reason === 'subscription_create') {
        // The checkout's own payment: a refund of it names this invoice's payment, which
        // the session did not carry.
        return {
          ...base,
          kind: 'subscription',
          orderId: null,
          subscriptionRef: subscription,
          refs: refsOf(object.id, object.payment_intent, object.charge),
        };
      }
      if (object.billing_reason !== 'subscription_cycle') {
        return { ...base, kind: 'ignored', refs: [] };
      }
      return {
        ...base,
        kind: 'renewal',
        orderId: idText(object.id) ?? '',
        refs: refsOf(object.payment_intent, object.charge),
        subscriptionRef: subscription,
        amount: minorUnits(object.amount_paid),
        currency: upperCurrency(object.currency),
        isTest,
      };
    }
    case 'charge.refunded':
      // A partial refund (a discount given afterwards) leaves the licence alone.
      if (object.refunded !== true) return { ...base, kind: 'ignored', refs: [] };
      return {
        ...base,
        kind: 'refund',
        refs: refsOf(object.payment_intent, object.invoice, object.id),
      };
    case 'charge.dispute.created':
      return { ...base, kind: 'chargeback', refs: refsOf(object.payment_intent, object.charge) };
    case 'customer.subscription.deleted':
      return { ...base, kind: 'lapse', refs: refsOf(object.id) };
    default:
      return { ...base, kind: 'ignored', refs: [] };
  }
}

/** Line items when the session was expanded, else the product its metadata names. */
function sessionItems(session: StripeObject): ShopLineItem[] {
  const lineItems = (session.line_items as { data?: unknown } | undefined)?.data;
  if (Array.isArray(lineItems)) {
    return lineItems.flatMap((item: StripeObject) => {
      const productId = idText((item.price as StripeObject | undefined)?.id);
      return productId ? [{ productId, quantity: wholeQuantity(item.quantity) }] : [];
    });
  }
  const metadata = (session.metadata ?? {}) as StripeObject;
  const productId = idText(metadata[STRIPE_PRODUCT_METADATA]);
  return productId
    ? [{ productId, quantity: wholeQuantity(metadata[STRIPE_QUANTITY_METADATA]) }]
    : [];
}

/** An invoice's subscription: top-level before API version 2025-03-31, under `parent` since. */
function invoiceSubscription(invoice: StripeObject): string | null {
  const parent = (invoice.parent ?? {}) as StripeObject;
  const details = (parent.subscription_details ?? {}) as StripeObject;
  return idText(invoice.subscription) ?? idText(details.subscription);
}

export function wholeQuantity(value: unknown): number {
  const number = typeof value === 'string' ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) && number >= 1 ? number : 1;
}

export function emailText(value: unknown): string | null {
  return typeof value === 'string' && z.email().safeParse(value.trim()).success
    ? value.trim()
    : null;
}
