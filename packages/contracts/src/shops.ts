import { z } from 'zod';
import { applicationIdSchema } from './applications.ts';
import { CLEAN_TEXT_MESSAGE, isCleanText } from './clean-text.ts';
import { pageQueryFields } from './paging.ts';

/**
 * Shop connections: a shop (Stripe, Lemon Squeezy, Paddle, Gumroad, Sellix, SellApp) calls its
 * connection's URL when an order is paid, renewed or refunded, and Latchkey mints, mails,
 * extends or bans the keys of the plan the product is mapped to.
 */
export const shopProviders = [
  'stripe',
  'lemonsqueezy',
  'paddle',
  'gumroad',
  'sellix',
  'sellapp',
] as const;
export const shopProviderSchema = z.enum(
  shopProviders,
  'provider must be stripe, lemonsqueezy, paddle, gumroad, sellix or sellapp',
);
export type ShopProvider = z.infer<typeof shopProviderSchema>;

export const shopProviderLabels: Record<ShopProvider, string> = {
  stripe: 'Stripe',
  lemonsqueezy: 'Lemon Squeezy',
  paddle: 'Paddle Billing',
  gumroad: 'Gumroad',
  sellix: 'Sellix',
  sellapp: 'SellApp',
};

/**
 * Providers whose signing secret the shop issues, so the owner must paste it. Lemon Squeezy
 * lets the owner choose one (Latchkey generates it when none is given); Gumroad signs nothing
 * and is authenticated by a token in its URL instead.
 */
export const shopProvidersWithIssuedSecret: readonly ShopProvider[] = [
  'stripe',
  'paddle',
  'sellix',
  'sellapp',
];

/**
 * Providers that deliver the answer's text to the buyer (dynamic delivery): the keys are in
 * the answer, one a line, as well as in the mail.
 */
export const shopProvidersWithDynamicDelivery: readonly ShopProvider[] = ['sellix', 'sellapp'];

/**
 * Providers that take an optional API key: Stripe's restricted key reads a Checkout Session's
 * line items when it carries no product metadata. Any other provider's is refused.
 */
export const shopProvidersWithApiKey: readonly ShopProvider[] = ['stripe'];

export const shopLimits = {
  name: 100,
  productId: 200,
  products: 100,
  /** Keys per unit bought. */
  quantity: 100,
  secret: 500,
  apiKey: 500,
} as const;

/** The most keys one order line mints (quantity bought × keys per unit). */
export const MAX_KEYS_PER_ORDER_LINE = 1_000;

export const SHOP_CONNECTION_NOT_FOUND = 'Shop connection not found';
export const SHOP_ORDER_NOT_FOUND = 'Order not found';
export const SHOP_SECRET_REQUIRED = 'Please paste the signing secret the shop shows';
export const SHOP_SECRET_NOT_USED = 'Gumroad signs nothing: its URL carries a token instead';
export const SHOP_API_KEY_STRIPE_ONLY = 'Only a Stripe connection uses an API key';
export const SHOP_PLAN_NOT_FOUND = 'A mapped plan was not found in this application';
export const SHOP_ORDER_NOT_WAITING = 'Only an order that needs mapping can be processed';
export const SHOP_ORDER_STILL_UNMAPPED = 'Map this product to a plan first';
export const SHOP_SIGNATURE_INVALID = 'The signature is missing, stale or does not match';
export const SHOP_EVENT_MALFORMED = 'The event is not one this shop sends';

const text = (field: string, max: number) =>
  z
    .string(`${field} must be text`)
    .refine(isCleanText, { message: CLEAN_TEXT_MESSAGE, abort: true })
    .trim()
    .min(1, `${field} is required`)
    .max(max, `${field} must be at most ${max} characters`);

/** One product of the shop (its price, variant or product id) and the plan it sells. */
export const shopProductSchema = z
  .object({
    productId: text('productId', shopLimits.productId),
    planId: z.uuid('Please choose a plan'),
    /** Keys per unit bought. */
    quantity: z
      .number('quantity must be a whole number')
      .int('quantity must be a whole number')
      .min(1, 'quantity must be at least 1')
      .max(shopLimits.quantity, `quantity must be at most ${shopLimits.quantity}`)
      .default(1),
  })
  .meta({ id: 'ShopProduct', description: 'A shop product mapped to a plan.' });
export type ShopProduct = z.output<typeof shopProductSchema>;

const productsSchema = z
  .array(shopProductSchema)
  .max(shopLimits.products, `At most ${shopLimits.products} products`)
  .superRefine((products, context) => {
    const seen = new Set<string>();
    products.forEach((product, index) => {
      if (seen.has(product.productId)) {
        context.addIssue({
          code: 'custom',
          path: [index, 'productId'],
          message: `${product.productId} is mapped twice`,
        });
      }
      seen.add(product.productId);
    });
  });

/** A written-only secret: blank is none. */
const secretField = (field: string, max: number) =>
  z.preprocess(
    (value) => (typeof value === 'string' ? value.trim() || null : value),
    z
      .string(`${field} must be text`)
      .max(max, `${field} must be at most ${max} characters`)
      .refine(
        (value) => /^[\x21-\x7e]+$/.test(value),
        `${field} must be one line of printable ASCII`,
      )
      .nullable()
      .optional(),
  );

/** POST /api/applications/:id/shop-connections. */
export const createShopConnectionRequestSchema = z.object({
  provider: shopProviderSchema,
  name: text('name', shopLimits.name),
  testMode: z.boolean('testMode must be true or false').default(false),
  /** The provider's signing secret; Lemon Squeezy's is generated when absent. */
  secret: secretField('secret', shopLimits.secret),
  /**
   * Stripe only, optional: a restricted key with read access to Checkout Sessions, to read a
   * session's line items when it carries no `latchkey_product` metadata.
   */
  apiKey: secretField('apiKey', shopLimits.apiKey),
  products: productsSchema.default([]),
});
export type CreateShopConnectionRequest = z.input<typeof createShopConnectionRequestSchema>;
export type CreateShopConnectionInput = z.output<typeof createShopConnectionRequestSchema>;

/** PUT …/shop-connections/:connectionId: any subset; an absent or blank secret keeps the current one. */
export const updateShopConnectionRequestSchema = z.object({
  name: text('name', shopLimits.name).optional(),
  testMode: z.boolean('testMode must be true or false').optional(),
  secret: secretField('secret', shopLimits.secret),
  /** A blank string keeps the key; null removes it. */
  apiKey: z.preprocess(
    (value) => (value === '' ? undefined : value),
    secretField('apiKey', shopLimits.apiKey),
  ),
  products: productsSchema.optional(),
  /** Gumroad: a new URL token; the old URL stops working at once. */
  rotateUrlToken: z.boolean('rotateUrlToken must be true or false').optional(),
});
export type UpdateShopConnectionRequest = z.input<typeof updateShopConnectionRequestSchema>;
export type UpdateShopConnectionInput = z.output<typeof updateShopConnectionRequestSchema>;

export const shopConnectionSchema = z
  .object({
    id: z.uuid(),
    publicId: z.string(),
    provider: shopProviderSchema,
    name: z.string(),
    testMode: z.boolean(),
    /** The full URL to paste into the shop (Gumroad's carries its token). */
    webhookUrl: z.string(),
    products: z.array(shopProductSchema),
    /** The signing secret's last characters; null for Gumroad. */
    secretHint: z.string().nullable(),
    hasApiKey: z.boolean(),
    /** Orders waiting for a product to be mapped. */
    ordersNeedingMapping: z.number().int(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'ShopConnection', description: 'A shop that sells an application\u2019s plans.' });
export type ShopConnection = z.infer<typeof shopConnectionSchema>;
export const shopConnectionListSchema = z.array(shopConnectionSchema);

/** The create answer: the only one with the secret (Lemon Squeezy's, when generated). */
export const createdShopConnectionSchema = shopConnectionSchema
  .extend({ secret: z.string().nullable() })
  .meta({ id: 'CreatedShopConnection' });
export type CreatedShopConnection = z.infer<typeof createdShopConnectionSchema>;

export const shopConnectionParamsSchema = z.object({
  id: applicationIdSchema,
  connectionId: z.uuid('Invalid shop connection id'),
});

/**
 * paid: keys minted (and mailed); renewed: a renewal that extended the first order's keys;
 * refunded / chargeback: the keys banned; needs_mapping: the product is mapped to no plan (map
 * it, then process the order); awaiting_email: paid, but the shop has not told the buyer's
 * address yet (Paddle), so nothing is minted until it does.
 */
export const shopOrderStatuses = [
  'paid',
  'renewed',
  'refunded',
  'chargeback',
  'needs_mapping',
  'awaiting_email',
] as const;
export type ShopOrderStatus = (typeof shopOrderStatuses)[number];

export const shopOrderSchema = z
  .object({
    id: z.uuid(),
    connectionId: z.uuid(),
    connectionName: z.string(),
    provider: shopProviderSchema,
    providerOrderId: z.string(),
    buyerEmail: z.string().nullable(),
    productId: z.string(),
    quantity: z.number().int(),
    /** In the currency's minor unit (cents); null when the shop did not say. */
    amount: z.number().int().nullable(),
    currency: z.string().nullable(),
    testMode: z.boolean(),
    status: z.enum(shopOrderStatuses),
    licenseIds: z.array(z.uuid()),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'ShopOrder', description: 'One line of a shop order and the keys it minted.' });
export type ShopOrder = z.infer<typeof shopOrderSchema>;
export const shopOrderListSchema = z.array(shopOrderSchema);

/** One provider event as it was received, for an order's detail. */
export const shopOrderEventSchema = z.object({
  id: z.uuid(),
  providerEventId: z.string(),
  type: z.string(),
  outcome: z.string(),
  receivedAt: z.iso.datetime(),
});
export type ShopOrderEvent = z.infer<typeof shopOrderEventSchema>;

export const shopOrderDetailSchema = shopOrderSchema
  .extend({
    events: z.array(shopOrderEventSchema),
    licenses: z.array(
      z.object({
        id: z.uuid(),
        key: z.string(),
        status: z.string(),
        bannedReason: z.string().nullable(),
      }),
    ),
  })
  .meta({ id: 'ShopOrderDetail' });
export type ShopOrderDetail = z.infer<typeof shopOrderDetailSchema>;

const blankIsAbsent = (value: unknown) => (value === '' ? undefined : value);

/** GET /api/applications/:id/orders. */
export const shopOrderListQuerySchema = z.object({
  ...pageQueryFields,
  status: z.preprocess(
    blankIsAbsent,
    z.enum(shopOrderStatuses, `status must be one of ${shopOrderStatuses.join(', ')}`).optional(),
  ),
  testMode: z.preprocess(
    blankIsAbsent,
    z
      .enum(['true', 'false'], 'testMode must be true or false')
      .transform((value) => value === 'true')
      .optional(),
  ),
  connectionId: z.preprocess(blankIsAbsent, z.uuid('Invalid shop connection id').optional()),
});
export type ShopOrderListQuery = z.input<typeof shopOrderListQuerySchema>;

export const shopOrderParamsSchema = z.object({
  id: applicationIdSchema,
  orderId: z.uuid('Invalid order id'),
});

/** POST …/shop-connections/:connectionId/test-event: which sample event to send. */
export const shopTestEventRequestSchema = z.object({
  productId: text('productId', shopLimits.productId),
  /** Where the sample order's keys are mailed; the owner's own address by default. */
  buyerEmail: z.preprocess(
    (value) => (typeof value === 'string' ? value.trim() || undefined : value),
    z.email('Please enter a valid e-mail address').max(254).optional(),
  ),
});
export type ShopTestEventRequest = z.input<typeof shopTestEventRequestSchema>;

/** What the test event did, as the connection's URL answered it. */
export const shopTestEventResultSchema = z
  .object({
    statusCode: z.number().int(),
    order: shopOrderSchema.nullable(),
  })
  .meta({ id: 'ShopTestEventResult' });
export type ShopTestEventResult = z.infer<typeof shopTestEventResultSchema>;

/** One currency's sales over a period: live orders only (test mode left out). */
export const shopSalesRowSchema = z.object({
  currency: z.string(),
  /** Paid orders and renewals (order lines), refunded or not. */
  orders: z.number().int(),
  /** What they brought, in the currency's minor unit, less what was refunded or charged back. */
  revenue: z.number().int(),
  /** Orders refunded or charged back. */
  refunds: z.number().int(),
});
export type ShopSalesRow = z.infer<typeof shopSalesRowSchema>;

/** GET /api/dashboard/sales: the dashboard's shop figures across the owner's applications. */
export const shopSalesSchema = z
  .object({
    /** Since midnight UTC. */
    today: z.array(shopSalesRowSchema),
    last30Days: z.array(shopSalesRowSchema),
  })
  .meta({ id: 'ShopSales' });
export type ShopSales = z.infer<typeof shopSalesSchema>;
