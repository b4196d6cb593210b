import { createHmac, randomUUID } from 'node:crypto';
import type { ShopProvider } from '@latchkey/contracts';
import { STRIPE_PRODUCT_METADATA } from './providers/stripe-events.ts';
import type { ShopRequest } from './providers/shop-event.ts';

export interface SampleOrder {
  orderId: string;
  productId: string;
  quantity: number;
  buyerEmail: string;
  /** In the minor unit. */
  amount: number;
  currency: string;
}

/** A realistic paid order of `provider`, as the shop would send it (before signing). */
export function samplePaidOrderDelivery(
  provider: ShopProvider,
  order: SampleOrder,
): { body: string; headers: Record<string, string> } {
  const major = (order.amount / 100).toFixed(2);
  switch (provider) {
    case 'stripe':
      return json({
        id: `evt_test_${order.orderId}`,
        object: 'event',
        type: 'checkout.session.completed',
        livemode: false,
        created: 0,
        data: {
          object: {
            id: order.orderId,
            object: 'checkout.session',
            mode: 'payment',
            payment_status: 'paid',
            payment_intent: `pi_${order.orderId}`,
            customer_details: { email: order.buyerEmail },
            amount_total: order.amount,
            currency: order.currency.toLowerCase(),
            metadata: {
              [STRIPE_PRODUCT_METADATA]: order.productId,
              latchkey_quantity: String(order.quantity),
            },
          },
        },
      });
    case 'lemonsqueezy':
      return json(
        {
          meta: { event_name: 'order_created', test_mode: true },
          data: {
            type: 'orders',
            id: order.orderId,
            attributes: {
              identifier: randomUUID(),
              user_email: order.buyerEmail,
              currency: order.currency,
              total: order.amount,
              status: 'paid',
              test_mode: true,
              first_order_item: { variant_id: order.productId, quantity: order.quantity },
            },
          },
        },
        { 'x-event-name': 'order_created' },
      );
    case 'paddle':
      return json({
        event_id: `evt_${order.orderId}`,
        event_type: 'transaction.completed',
        occurred_at: new Date().toISOString(),
        notification_id: `ntf_${order.orderId}`,
        data: {
          id: order.orderId,
          status: 'completed',
          origin: 'web',
          customer_id: `ctm_${order.orderId}`,
          subscription_id: null,
          custom_data: { email: order.buyerEmail },
          currency_code: order.currency,
          items: [{ price: { id: order.productId }, quantity: order.quantity }],
          details: { totals: { grand_total: String(order.amount), currency_code: order.currency } },
        },
      });
    case 'gumroad':
      return {
        body: new URLSearchParams({
          sale_id: order.orderId,
          product_id: order.productId,
          email: order.buyerEmail,
          price: String(order.amount),
          currency: order.currency.toLowerCase(),
          quantity: String(order.quantity),
          refunded: 'false',
          test: 'true',
        }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      };
    case 'sellix':
      return json(
        {
          event: 'product:dynamic',
          data: {
            uniqid: order.orderId,
            product_id: order.productId,
            quantity: order.quantity,
            customer_email: order.buyerEmail,
            total: Number(major),
            currency: order.currency,
          },
        },
        { 'x-sellix-event': 'product:dynamic', 'x-sellix-product-id': order.productId },
      );
    case 'sellapp':
      return json({
        event: 'order.completed',
        data: {
          id: order.orderId,
          product_variant_id: order.productId,
          quantity: order.quantity,
          customer_information: { email: order.buyerEmail },
          total: major,
          currency: order.currency,
        },
      });
  }
}

/**
 * Signs a delivery as `provider` signs it: Stripe with Stripe's own library, the others by
 * their documented schemes. Gumroad's authentication is its URL token, not a header.
 */
export async function signShopDelivery(
  provider: ShopProvider,
  delivery: { body: string; headers: Record<string, string> },
  secret: string,
  nowSeconds: number,
): Promise<Record<string, string>> {
  const hmac = (algorithm: string, payload: string) =>
    createHmac(algorithm, secret).update(payload).digest('hex');
  const headers = { ...delivery.headers };
  switch (provider) {
    case 'stripe': {
      const { default: Stripe } = await import('stripe');
      headers['stripe-signature'] = Stripe.webhooks.generateTestHeaderString({
        payload: delivery.body,
        secret,
        timestamp: nowSeconds,
      });
      break;
    }
    case 'lemonsqueezy':
      headers['x-signature'] = hmac('sha256', delivery.body);
      break;
    case 'paddle':
      headers['paddle-signature'] =
        `ts=${nowSeconds};h1=${hmac('sha256', `${nowSeconds}:${delivery.body}`)}`;
      break;
    case 'sellix':
      headers['x-sellix-signature'] = hmac('sha512', delivery.body);
      break;
    case 'sellapp':
      headers.signature = hmac('sha256', delivery.body);
      break;
    case 'gumroad':
      break;
  }
  return headers;
}

export function shopRequestOf(
  delivery: { body: string },
  headers: Record<string, string>,
  options: { urlToken: string | null; nowSeconds: number },
): ShopRequest {
  return {
    rawBody: Buffer.from(delivery.body),
    headers,
    urlToken: options.urlToken,
    receivedAtSeconds: options.nowSeconds,
  };
}

function json(body: unknown, headers: Record<string, string> = {}) {
  return {
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...headers },
  };
}
