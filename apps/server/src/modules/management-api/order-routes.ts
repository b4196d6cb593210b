import type { FastifyInstance } from 'fastify';
import {
  applicationParamsSchema,
  shopOrderListQuerySchema,
  shopOrderListSchema,
  type ShopOrder,
} from '@latchkey/contracts';
import { setPagingHeaders } from '../../http/paging-headers.ts';
import { paged } from '../../http/route-contract.ts';
import { routeDefiner } from '../../http/route-definition.ts';
import { listShopOrders, toShopOrderResponse } from '../shops/index.ts';
import { registerApplicationRoutes } from './management-route-scopes.ts';

const defineRoute = routeDefiner();

/** The orders shops sent, for a bookkeeping script: read only (shops write them, not tokens). */
export const managementOrderRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/manage/v1/applications/:id/orders',
    caller: 'manage',
    tag: 'Management API',
    summary: 'List the orders shops sent (paged; ?status, ?testMode, ?connectionId, ?search)',
    params: applicationParamsSchema,
    query: shopOrderListQuerySchema,
    responses: { 200: paged(shopOrderListSchema, 'Orders, newest first.') },
    management: { scope: 'orders:read', sameAs: 'GET /api/applications/:id/orders' },
    handle: async ({ params, query, request, reply }): Promise<ShopOrder[]> => {
      const page = await listShopOrders({
        ctx: request.management!,
        input: { applicationId: params.id, ...query },
      });
      setPagingHeaders(reply, query, page);
      return page.rows.map(toShopOrderResponse);
    },
  }),
];

export function registerManagementOrderRoutes(app: FastifyInstance): void {
  registerApplicationRoutes(app, managementOrderRoutes, undefined as never);
}
