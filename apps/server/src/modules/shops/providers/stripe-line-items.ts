import type { ShopLineItem } from './shop-event.ts';

/**
 * A Checkout Session's line items, read with the connection's own restricted key (read access
 * to Checkout Sessions) through Stripe's library: a session's webhook carries none, so a
 * vendor who does not set `latchkey_product` metadata gives Latchkey this key instead.
 * `apiUrl` points the library elsewhere (a proxy; a test's stand-in).
 */
export async function fetchStripeLineItems(
  apiKey: string,
  sessionId: string,
  apiUrl: string | null,
): Promise<ShopLineItem[]> {
  const { default: Stripe } = await import('stripe');
  const url = apiUrl ? new URL(apiUrl) : null;
  const protocol = url?.protocol === 'http:' ? 'http' : 'https';
  const stripe = new Stripe(apiKey, {
    maxNetworkRetries: 1,
    timeout: 10_000,
    ...(url
      ? { host: url.hostname, port: Number(url.port || (protocol === 'http' ? 80 : 443)), protocol }
      : {}),
  });
  const page = await stripe.checkout.sessions.listLineItems(sessionId, { limit: 100 });
  return page.data.flatMap((item) =>
    item.price?.id ? [{ productId: item.price.id, quantity: item.quantity ?? 1 }] : [],
  );
}
