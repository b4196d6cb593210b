import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  applicationParamsSchema,
  createdShopConnectionSchema,
  createShopConnectionRequestSchema,
  deletedResponseSchema,
  shopConnectionListSchema,
  shopConnectionParamsSchema,
  shopConnectionSchema,
  shopOrderDetailSchema,
  shopOrderListQuerySchema,
  shopOrderListSchema,
  shopOrderParamsSchema,
  shopOrderSchema,
  shopSalesSchema,
  shopTestEventRequestSchema,
  shopTestEventResultSchema,
  updateShopConnectionRequestSchema,
  type DeletedResponse,
  type ShopOrder,
} from '@latchkey/contracts';
import type { AppDependencies } from '../../http/app-dependencies.ts';
import { setPagingHeaders } from '../../http/paging-headers.ts';
import { ok, paged } from '../../http/route-contract.ts';
import { registerRoutes, routeDefiner } from '../../http/route-definition.ts';
import type { ActivityRecorder } from '../activity/index.ts';
import { mailLinkOrigin, type MailOutbox } from '../mail/index.ts';
import { createShopConnection } from './create-shop-connection.ts';
import { deleteShopConnection } from './delete-shop-connection.ts';
import { getShopOrder } from './get-shop-order.ts';
import { getShopSales } from './get-shop-sales.ts';
import { listShopConnections } from './list-shop-connections.ts';
import { listShopOrders } from './list-shop-orders.ts';
import { processShopOrder } from './process-shop-order.ts';
import { sendShopTestEvent } from './send-shop-test-event.ts';
import type { ShopOwnerContext } from './shop-context.ts';
import { toShopOrderResponse } from './to-shop-order-response.ts';
import { updateShopConnection } from './update-shop-connection.ts';

export interface ShopServices extends Pick<AppDependencies, 'config' | 'applicationEvents'> {
  activity: Pick<ActivityRecorder, 'noteWritten'>;
  mail: MailOutbox;
}

const defineRoute = routeDefiner<ShopServices>();

const shopCtx = (request: FastifyRequest, { config }: ShopServices): ShopOwnerContext => ({
  ...request.owner!,
  serverSecret: config.serverSecret,
  publicOrigin: mailLinkOrigin(config),
});

/**
 * An application's shop connections and the orders they sent, for its owner. A connection's
 * URL (Gumroad's carries its token) and secrets are the right to sell: they go with managing
 * the application; the orders are a read of its data.
 */
export const shopRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/applications/:id/shop-connections',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'Shops',
    summary: 'List shop connections',
    description:
      'Oldest first. `webhookUrl` is the URL to paste into the shop; secrets are never answered again (`secretHint` tells them apart).',
    params: applicationParamsSchema,
    responses: { 200: ok(shopConnectionListSchema) },
    handle: ({ params, request }, services) =>
      listShopConnections({ ctx: shopCtx(request, services), input: { applicationId: params.id } }),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/applications/:id/shop-connections',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'Shops',
    summary: 'Connect a shop',
    description:
      'Stripe, Paddle, Sellix and SellApp issue the signing secret: paste it as `secret` (400 without it). Lemon Squeezy\u2019s is generated when absent and answered once as `secret`. Gumroad signs nothing: its `webhookUrl` carries a token instead. Every mapped plan must be the application\u2019s.',
    params: applicationParamsSchema,
    body: createShopConnectionRequestSchema,
    responses: { 201: ok(createdShopConnectionSchema, 'Created.') },
    handle: async ({ params, body, request, reply }, services) => {
      const created = await createShopConnection({
        ctx: shopCtx(request, services),
        input: { applicationId: params.id, request: body },
      });
      return reply.status(201).send(created);
    },
  }),
  defineRoute({
    method: 'PUT',
    path: '/api/applications/:id/shop-connections/:connectionId',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'Shops',
    summary: 'Change a shop connection',
    description:
      'Any subset. A blank `secret` keeps the current one; `apiKey: null` removes the key; `rotateUrlToken` gives a Gumroad connection a new URL (the old one stops at once).',
    params: shopConnectionParamsSchema,
    body: updateShopConnectionRequestSchema,
    responses: { 200: ok(shopConnectionSchema) },
    handle: ({ params, body, request }, services) =>
      updateShopConnection({
        ctx: shopCtx(request, services),
        input: { applicationId: params.id, connectionId: params.connectionId, request: body },
      }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/applications/:id/shop-connections/:connectionId',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'Shops',
    summary: 'Disconnect a shop',
    description:
      'Its URL answers 404 from now on. Its orders and the keys they minted stay on record.',
    params: shopConnectionParamsSchema,
    responses: { 200: ok(deletedResponseSchema) },
    handle: async ({ params, request }, services): Promise<DeletedResponse> => {
      await deleteShopConnection({
        ctx: shopCtx(request, services),
        input: { applicationId: params.id, connectionId: params.connectionId },
      });
      return { success: true, message: 'Shop connection deleted' };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/applications/:id/shop-connections/:connectionId/test-event',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'Shops',
    summary: 'Send the connection a signed sample order',
    description:
      'A realistic paid order of the shop, signed with the connection\u2019s own secret and processed like a delivery from the shop, in test mode: keys are minted for the product\u2019s plan and mailed to `buyerEmail` (the owner\u2019s address by default). The answer is the order it made.',
    params: shopConnectionParamsSchema,
    body: shopTestEventRequestSchema,
    responses: { 200: ok(shopTestEventResultSchema) },
    handle: ({ params, body, request }, services) => {
      const ctx = shopCtx(request, services);
      return sendShopTestEvent({
        ctx: { ...ctx, ...services, stripeApiUrl: services.config.stripeApiUrl },
        input: {
          applicationId: params.id,
          connectionId: params.connectionId,
          productId: body.productId,
          buyerEmail: body.buyerEmail ?? ctx.account.email,
        },
      });
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/applications/:id/orders',
    permission: 'signed_in',
    caller: 'owner',
    tag: 'Shops',
    summary: 'List the orders shops sent',
    description:
      'Newest first, one row per product of an order. `search` matches the buyer\u2019s address or the shop\u2019s order id; `status`, `testMode` and `connectionId` filter. A renewal\u2019s `licenseIds` are its first order\u2019s keys.',
    params: applicationParamsSchema,
    query: shopOrderListQuerySchema,
    responses: { 200: paged(shopOrderListSchema, 'Orders, newest first.') },
    handle: async ({ params, query, request, reply }): Promise<ShopOrder[]> => {
      const page = await listShopOrders({
        ctx: request.owner!,
        input: { applicationId: params.id, ...query },
      });
      setPagingHeaders(reply, query, page);
      return page.rows.map(toShopOrderResponse);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/applications/:id/orders/:orderId',
    permission: 'signed_in',
    caller: 'owner',
    tag: 'Shops',
    summary: 'An order with its events and keys',
    description: 'The keys as lists show them (all but the last four characters hidden).',
    params: shopOrderParamsSchema,
    responses: { 200: ok(shopOrderDetailSchema) },
    handle: ({ params, request }) =>
      getShopOrder({
        ctx: request.owner!,
        input: { applicationId: params.id, orderId: params.orderId },
      }),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/applications/:id/orders/:orderId/process',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'Shops',
    summary: 'Mint an order that waited for its product to be mapped',
    description:
      'Only an order in `needs_mapping` (409 otherwise, and while its product is still mapped to no plan). Mints and mails as the paid event would have.',
    params: shopOrderParamsSchema,
    responses: { 200: ok(shopOrderSchema) },
    errors: [409],
    handle: ({ params, request }, services) =>
      processShopOrder({
        ctx: shopCtx(request, services),
        input: { applicationId: params.id, orderId: params.orderId },
        mail: services.mail,
        activity: services.activity,
      }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/dashboard/sales',
    permission: 'signed_in',
    caller: 'owner',
    tag: 'Dashboard',
    summary: 'Shop orders and revenue, today and over 30 days, per currency',
    description:
      'Across the owner\u2019s applications; test-mode orders left out. `revenue` is in the currency\u2019s minor unit, less refunded and charged-back orders; `today` starts at midnight UTC.',
    responses: { 200: ok(shopSalesSchema) },
    handle: ({ request }) => getShopSales({ ctx: request.owner! }),
  }),
];

export function registerShopRoutes(app: FastifyInstance, services: ShopServices): void {
  registerRoutes(app, shopRoutes, services);
}
