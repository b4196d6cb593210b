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
import {
  ShopEventMalformedError,
  ShopSignatureError,
  type ShopEvent,
  type ShopLineItem,
  type ShopRequest,
} from './shop-event.ts';

type Json = Record<string, unknown>;

/** Paddle's own SDK's window: a notification signed more than five seconds ago is refused. */
export const PADDLE_TOLERANCE_SECONDS = 5;

/**
 * Paddle Billing: `Paddle-Signature: ts=…;h1=…`, the hex HMAC-SHA256 of `{ts}:{body}` under
 * the notification destination's secret key. Checked here by that documented scheme rather
 * than by `@paddle/paddle-node-sdk`'s `webhooks.unmarshal`, because the SDK compares the
 * signature with `===` (its time depends on how much of a forgery is right) and reads the
 * wall clock rather than ours; the tests check that the SDK accepts what this accepts.
 *
 * A transaction names its customer by id only. The buyer's address comes from the
 * transaction's `custom_data.email` when checkout set it, else from the customer.created /
 * customer.updated events this connection received for that id; an order whose address is
 * not known yet waits (awaiting_email) and is minted when the customer event arrives.
 */
export function readPaddleEvent(request: ShopRequest, secret: string): ShopEvent {
  const { ts, h1 } = signatureParts(headerOf(request, 'paddle-signature'));
  if (Math.abs(request.receivedAtSeconds - ts) > PADDLE_TOLERANCE_SECONDS) {
    throw new ShopSignatureError('signature timestamp outside the tolerance');
  }
  assertHmacHex('sha256', secret, Buffer.concat([Buffer.from(`${ts}:`), request.rawBody]), h1);
  const body = jsonBodyOf(request) as Json;
  const type = typeof body?.event_type === 'string' ? body.event_type : null;
  const eventId = idText(body?.event_id) ?? idText(body?.notification_id);
  const data = (body?.data ?? null) as Json | null;
  if (!type || !eventId || !data) throw new ShopEventMalformedError('not a Paddle event');
  const base = { eventId, type };
  switch (type) {
    case 'transaction.completed': {
      const transactionId = idText(data.id) ?? '';
      const subscription = idText(data.subscription_id);
      const totals = ((data.details as Json | undefined)?.totals ?? {}) as Json;
      const money = {
        amount: minorUnits(totals.grand_total ?? totals.total),
        currency: upperCurrency(totals.currency_code ?? data.currency_code),
      };
      // A subscription's later charges come with origin subscription_recurring.
      if (data.origin === 'subscription_recurring' && subscription) {
        return {
          ...base,
          kind: 'renewal',
          orderId: transactionId,
          refs: [],
          subscriptionRef: subscription,
          ...money,
          isTest: false,
        };
      }
      const customData = (data.custom_data ?? {}) as Json;
      return {
        ...base,
        kind: 'paid',
        orderId: transactionId,
        refs: refsOf(data.invoice_id),
        subscriptionRef: subscription,
        customerRef: idText(data.customer_id),
        buyerEmail: emailText(customData.email),
        items: transactionItems(data),
        ...money,
        isTest: false,
      };
    }
    case 'adjustment.created':
    case 'adjustment.updated': {
      const transactionId = idText(data.transaction_id);
      if (!transactionId) return { ...base, kind: 'ignored', refs: [] };
      // A chargeback is final when it is reported; a refund only once Paddle approved it.
      if (data.action === 'chargeback')
        return { ...base, kind: 'chargeback', refs: [transactionId] };
      if (data.action === 'refund' && data.status === 'approved' && data.type !== 'partial') {
        return { ...base, kind: 'refund', refs: [transactionId] };
      }
      return { ...base, kind: 'ignored', refs: [] };
    }
    case 'customer.created':
    case 'customer.updated': {
      const customerRef = idText(data.id);
      const email = emailText(data.email);
      if (!customerRef || !email) return { ...base, kind: 'ignored', refs: [] };
      return { ...base, kind: 'customer', customerRef, email };
    }
    case 'subscription.canceled':
      return { ...base, kind: 'lapse', refs: refsOf(data.id) };
    default:
      return { ...base, kind: 'ignored', refs: [] };
  }
}

function signatureParts(header: string): { ts: number; h1: string } {
  let ts = '';
  let h1 = '';
  for (const part of header.split(';')) {
    const [key, value] = part.split('=', 2);
    if (key === 'ts' && value) ts = value;
    if (key === 'h1' && value) h1 = value;
  }
  if (!/^\d{1,12}$/.test(ts) || !h1) throw new ShopSignatureError('no Paddle-Signature');
  return { ts: Number(ts), h1 };
}

function transactionItems(transaction: Json): ShopLineItem[] {
  const items = Array.isArray(transaction.items) ? (transaction.items as Json[]) : [];
  return items.flatMap((item) => {
    const productId = idText((item.price as Json | undefined)?.id) ?? idText(item.price_id);
    return productId ? [{ productId, quantity: wholeQuantity(item.quantity) }] : [];
  });
}
