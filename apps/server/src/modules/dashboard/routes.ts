import type { FastifyInstance } from 'fastify';
import { dashboardStatsSchema } from '@latchkey/contracts';
import { ok } from '../../http/route-contract.ts';
import { registerRoutes, routeDefiner } from '../../http/route-definition.ts';
import { getDashboardStats } from './get-dashboard-stats.ts';

const defineRoute = routeDefiner<void>();

/** The dashboard's totals. */
export const dashboardRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/dashboard/stats',
    permission: 'signed_in',
    caller: 'owner',
    tag: 'Dashboard',
    summary: 'Totals across the owner\u2019s applications',
    responses: { 200: ok(dashboardStatsSchema) },
    handle: async ({ request }) => getDashboardStats({ ctx: request.owner! }),
  }),
];

export function registerDashboardRoutes(app: FastifyInstance): void {
  registerRoutes(app, dashboardRoutes, undefined);
}
