import type { ShopProvider } from '@latchkey/contracts';
import type { ReactNode } from 'react';

/** How a provider names the product a connection maps, and what such an id looks like. */
export interface ShopProductNaming {
  label: string;
  placeholder: string;
  hint: string;
}

interface ShopProviderGuide {
  product: ShopProductNaming;
  /** Where the signing secret comes from, under the secret field. */
  secretHint: string;
  /** The events to tick in the provider's dashboard. */
  events: readonly string[];
  steps: (url: ReactNode) => ReactNode[];
}

function Code({ children }: { children: ReactNode }) {
  return (
    <code className="rounded bg-muted px-1 py-0.5 font-mono text-xs break-all">{children}</code>
  );
}

function EventList({ events }: { events: readonly string[] }) {
  return (
    <>
      {events.map((event, index) => (
        <span key={event}>
          {index > 0 && ', '}
          <Code>{event}</Code>
        </span>
      ))}
    </>
  );
}

/**
 * What to paste where in each shop's dashboard, as the provider readers on the server expect
 * it: the events each one acts on, where its secret comes from, and which id is the product.
 */
export const shopProviderGuides: Record<ShopProvider, ShopProviderGuide> = {
  stripe: {
    product: {
      label: 'Price ID',
      placeholder: 'price_…',
      hint: 'The price id set as latchkey_product in the metadata of the Payment Link or Checkout Session.',
    },
    secretHint: "The endpoint's signing secret (whsec_…), shown on the webhook endpoint in Stripe.",
    events: [
      'checkout.session.completed',
      'checkout.session.async_payment_succeeded',
      'invoice.paid',
      'charge.refunded',
      'charge.dispute.created',
      'customer.subscription.deleted',
    ],
    steps: (url) => [
      <>In Stripe&apos;s Dashboard, open Developers → Webhooks and add an endpoint with {url}.</>,
      <>
        Select these events: <EventList events={shopProviderGuides.stripe.events} />.
      </>,
      <>
        Reveal the endpoint&apos;s signing secret (<Code>whsec_…</Code>) and paste it as the signing
        secret here.
      </>,
      <>
        On each Payment Link or Checkout Session, set the metadata <Code>latchkey_product</Code> to
        the price id mapped below, and optionally <Code>latchkey_quantity</Code> to the quantity
        bought.
      </>,
      <>
        Or, instead of the metadata: a restricted API key with read access to Checkout Sessions lets
        Latchkey read what a session sold.
      </>,
    ],
  },
  lemonsqueezy: {
    product: {
      label: 'Variant ID',
      placeholder: '123456',
      hint: "The variant's id, from the product's variants in Lemon Squeezy.",
    },
    secretHint:
      'Type a secret and the same one in Lemon Squeezy, or leave it blank: one is generated and shown once after connecting.',
    events: [
      'order_created',
      'subscription_created',
      'subscription_payment_success',
      'order_refunded',
      'subscription_payment_refunded',
      'subscription_expired',
    ],
    steps: (url) => [
      <>
        In Lemon Squeezy, open Settings → Webhooks and add a webhook with {url} as its Callback URL.
      </>,
      <>
        Signing secret: choose one and type it in both places, or leave it blank here and paste the
        one Latchkey generates (shown once, after connecting).
      </>,
      <>
        Tick these events: <EventList events={shopProviderGuides.lemonsqueezy.events} />.
      </>,
      <>Map each product below by its variant id.</>,
    ],
  },
  paddle: {
    product: {
      label: 'Price ID',
      placeholder: 'pri_…',
      hint: "The price's id (pri_…) from Paddle's catalog.",
    },
    secretHint: "The notification destination's secret key, shown on the destination in Paddle.",
    events: [
      'transaction.completed',
      'customer.created',
      'customer.updated',
      'adjustment.created',
      'adjustment.updated',
      'subscription.canceled',
    ],
    steps: (url) => [
      <>
        In Paddle, open Developer Tools → Notifications and add a destination of type webhook with{' '}
        {url}.
      </>,
      <>
        Tick these events: <EventList events={shopProviderGuides.paddle.events} />.
      </>,
      <>Copy the destination&apos;s secret key and paste it as the signing secret here.</>,
      <>
        Map each product below by its price id (<Code>pri_…</Code>). The buyer&apos;s address comes
        from the checkout&apos;s <Code>custom_data.email</Code> or from the customer events; until
        it is known the order waits as Awaiting e-mail.
      </>,
    ],
  },
  gumroad: {
    product: {
      label: 'Product ID',
      placeholder: 'AbCdEf12345==',
      hint: "The product's id, from its page in Gumroad.",
    },
    secretHint: 'Gumroad signs nothing: its URL carries a token instead.',
    events: [],
    steps: (url) => [
      <>
        Gumroad signs nothing, so {url} carries a token of its own: keep it as private as a
        password.
      </>,
      <>In Gumroad, open Settings → Advanced and paste it as the Ping URL.</>,
      <>Map each product below by its product id.</>,
      <>If the URL leaks, make a new one with New URL: the old one stops working at once.</>,
    ],
  },
  sellix: {
    product: {
      label: 'Product ID',
      placeholder: '6553f1b2c3d4e',
      hint: "The product's uniqid in Sellix.",
    },
    secretHint: "Your Sellix shop's webhook secret, from its settings.",
    events: ['product:dynamic', 'order:paid', 'order:disputed'],
    steps: (url) => [
      <>Copy your Sellix shop&apos;s webhook secret from its settings and paste it here.</>,
      <>
        On each product, choose dynamic delivery and paste {url} as its dynamic webhook URL: Sellix
        asks it with the event <Code>product:dynamic</Code> and gives the buyer the keys it answers.
      </>,
      <>
        Optional: add a webhook with the same URL for <Code>order:paid</Code> and{' '}
        <Code>order:disputed</Code> (a dispute bans the order&apos;s keys).
      </>,
      <>Map each product below by its uniqid.</>,
    ],
  },
  sellapp: {
    product: {
      label: 'Variant ID',
      placeholder: '12345',
      hint: "The product variant's id in SellApp.",
    },
    secretHint: "Your SellApp store's webhook secret, from its settings.",
    events: [],
    steps: (url) => [
      <>Copy your SellApp store&apos;s webhook secret from its settings and paste it here.</>,
      <>
        On each product variant, choose dynamic delivery and paste {url} as its dynamic webhook URL:
        the buyer receives the keys it answers.
      </>,
      <>Map each variant below by its id.</>,
    ],
  },
};

/** How the steps name the connection's URL, by where they are read. */
export const SHOP_URL_WORDS = {
  beforeConnecting: 'the URL shown after connecting',
  shownAbove: 'the URL above',
  onItsCard: "the connection's URL (on its card)",
} as const;

/** The provider's steps, numbered, the connection's URL named as `urlWords`. */
export function ShopProviderSteps({
  provider,
  urlWords,
}: {
  provider: ShopProvider;
  urlWords: string;
}) {
  return (
    <ol className="grid list-decimal gap-1.5 rounded-lg border border-border bg-muted/30 py-3 pr-3 pl-8 text-sm text-muted-foreground">
      {shopProviderGuides[provider].steps(urlWords).map((step, index) => (
        <li key={index}>{step}</li>
      ))}
    </ol>
  );
}
