import type { ShopProvider } from '@latchkey/contracts';

/** One product of an order: the shop's identifier a connection maps, and how many were bought. */
export interface ShopLineItem {
  productId: string;
  quantity: number;
}

/** What every event of a shop says about the order it concerns, once read. */
interface ShopEventBase {
  /** The provider's own id of the event (or the order's, where a shop sends no event id). */
  eventId: string;
  /** The provider's own name of the event. */
  type: string;
}

/** An order paid: mint the keys of its products. */
export interface ShopPaidEvent extends ShopEventBase {
  kind: 'paid';
  orderId: string;
  /** Every other id a refund or dispute may name this order by. */
  refs: string[];
  subscriptionRef: string | null;
  customerRef: string | null;
  buyerEmail: string | null;
  items: ShopLineItem[];
  /** The whole order, in the currency's minor unit. */
  amount: number | null;
  currency: string | null;
  isTest: boolean;
}

/** A subscription's later payment: extend the keys of the order that started it. */
export interface ShopRenewalEvent extends ShopEventBase {
  kind: 'renewal';
  /** The renewal payment's own id (an invoice, a transaction). */
  orderId: string;
  refs: string[];
  subscriptionRef: string;
  amount: number | null;
  currency: string | null;
  isTest: boolean;
}

/** Money given back, or taken back by the buyer's bank: ban the order's keys. */
export interface ShopReversalEvent extends ShopEventBase {
  kind: 'refund' | 'chargeback';
  /** Ids the reversed order is known by (any one of them finds it). */
  refs: string[];
}

/**
 * More about a subscription's first order, after the fact: the order that started it (Lemon
 * Squeezy's subscription_created), or more ids a refund may name it by (Stripe's first
 * invoice, whose payment the checkout session does not name).
 */
export interface ShopSubscriptionLinkEvent extends ShopEventBase {
  kind: 'subscription';
  /** The first order's id, when the event names it; else the orders of the subscription. */
  orderId: string | null;
  subscriptionRef: string;
  refs: string[];
}

/** A buyer's address, by the shop's customer id (Paddle). */
export interface ShopCustomerEvent extends ShopEventBase {
  kind: 'customer';
  customerRef: string;
  email: string;
}

/** Nothing to do here: a subscription that lapsed (its keys simply run out), or any other event. */
export interface ShopNoticeEvent extends ShopEventBase {
  kind: 'lapse' | 'ignored';
  refs: string[];
}

export type ShopEvent =
  | ShopPaidEvent
  | ShopRenewalEvent
  | ShopReversalEvent
  | ShopSubscriptionLinkEvent
  | ShopCustomerEvent
  | ShopNoticeEvent;

/** What a provider's reader needs: the request as it arrived and the connection's secrets. */
export interface ShopRequest {
  /** The body's bytes, exactly as received: signatures are over them. */
  rawBody: Buffer;
  headers: Record<string, string | string[] | undefined>;
  /** The query string's `token` (Gumroad's URL token). */
  urlToken: string | null;
  /** Seconds since the epoch, by the server's clock: replay windows are measured against it. */
  receivedAtSeconds: number;
}

export interface ShopSecrets {
  provider: ShopProvider;
  /** The signing secret; null for Gumroad. */
  secret: string | null;
  /** Gumroad's URL token. */
  urlToken: string | null;
}

/** The signature is missing, stale or wrong: 400, and nothing is read of the body. */
export class ShopSignatureError extends Error {
  override readonly name = 'ShopSignatureError';
}

/** Signed, but not an event this shop sends (not JSON, a field of the wrong type). */
export class ShopEventMalformedError extends Error {
  override readonly name = 'ShopEventMalformedError';
}
