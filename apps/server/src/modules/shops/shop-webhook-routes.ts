import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { shopProvidersWithDynamicDelivery } from '@latchkey/contracts';
import type { AppDependencies } from '../../http/app-dependencies.ts';
import { answerErrorsAsProblems } from '../../http/problem-details.ts';
import { registerRoutes, routeDefiner } from '../../http/route-definition.ts';
import type { ActivityRecorder } from '../activity/index.ts';
import type { MailOutbox } from '../mail/index.ts';
import { receiveShopEvent } from './receive-shop-event.ts';

/** The largest event a shop sends is a few tens of kilobytes (a Stripe session with metadata). */
const SHOP_EVENT_BODY_LIMIT = 1024 * 1024;

/**
 * What a dynamic delivery answers when it has no keys to give (an unmapped product, an order
 * refunded before it arrived): the shop shows it to the buyer instead.
 */
export const DYNAMIC_DELIVERY_PENDING =
  'Thank you for your order. Your licence key will be sent to you by e-mail.';

interface ShopWebhookServices {
  db: AppDependencies['database']['db'];
  clock: AppDependencies['clock'];
  serverSecret: string;
  stripeApiUrl: string | null;
  mail: MailOutbox;
  activity: Pick<ActivityRecorder, 'noteWritten'>;
  applicationEvents: AppDependencies['applicationEvents'];
}

const defineRoute = routeDefiner<ShopWebhookServices>();

const shopWebhookParamsSchema = z.object({
  publicId: z.string().regex(/^[A-Za-z0-9_-]{10,64}$/, 'Unknown shop connection'),
});

export const shopWebhookRoutes = [
  defineRoute({
    method: 'POST',
    path: '/api/shops/:publicId',
    caller: 'public',
    tag: 'Shops',
    summary: 'A shop\u2019s event (the URL a shop connection gives to paste into the shop)',
    description:
      'Called by the shop, not by people: Stripe, Lemon Squeezy, Paddle, Sellix and SellApp sign the body (checked on its raw bytes, in constant time, within the provider\u2019s replay window); Gumroad\u2019s URL carries a `token` instead. A missing, stale or wrong signature is a 400 that names no secret; an unknown or deleted connection a 404. The answer leaves after the order is committed. Sellix and SellApp (dynamic delivery) are answered the order\u2019s keys as `text/plain`, one a line, the same keys when asked again.',
    params: shopWebhookParamsSchema,
    bodyMediaType: 'application/octet-stream',
    errorBody: 'problem',
    bodyLimit: SHOP_EVENT_BODY_LIMIT,
    responses: {
      200: {
        description:
          'Received: `received`, or `duplicate` for an event received before. Dynamic delivery (Sellix, SellApp) is answered the order\u2019s keys instead, one a line.',
        mediaType: 'text/plain',
      },
    },
    errors: [404],
    handle: async ({ params, request, reply }, services) => {
      const receivedAt = services.clock.now();
      const token = (request.query as Record<string, unknown>).token;
      const receipt = await receiveShopEvent({
        ctx: { ...services, log: request.log },
        input: {
          publicId: params.publicId,
          request: {
            rawBody: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
            headers: request.headers,
            urlToken: typeof token === 'string' ? token : null,
            receivedAtSeconds: Math.floor(receivedAt.getTime() / 1000),
          },
        },
      });
      reply.header('cache-control', 'no-store').type('text/plain; charset=utf-8');
      const isDynamic = shopProvidersWithDynamicDelivery.includes(receipt.connection.provider);
      if (isDynamic && receipt.event.kind === 'paid') {
        const { keys } = receipt.effect;
        return reply.send(keys.length > 0 ? keys.join('\n') : DYNAMIC_DELIVERY_PENDING);
      }
      return reply.send(receipt.isDuplicate ? 'duplicate' : 'received');
    },
  }),
];

/**
 * The shops' URL in a scope of its own: every body is kept as its raw bytes (signatures are
 * over them, so nothing may parse or re-encode it first), whatever its media type.
 */
export async function registerShopWebhookRoutes(
  app: FastifyInstance,
  services: ShopWebhookServices,
): Promise<void> {
  await app.register(async (scope) => {
    answerErrorsAsProblems(scope);
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) =>
      done(null, body),
    );
    registerRoutes(scope, shopWebhookRoutes, services);
  });
}
