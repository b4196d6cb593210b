import type { RouteDefinition } from '../../http/route-definition.ts';
import type { FastifyInstance } from 'fastify';
import { getDashboardStats } from './get-dashboard-stats.ts';

export function registerDashboardRoutes(app: FastifyInstance): void {
  app.get('/api/dashboard/stats', async (request) => getDashboardStats({ ctx: request.owner! }));
}

/** The module's routes defined once (route-definition.ts); the rest are registered above. */
export const dashboardRoutes: readonly RouteDefinition[] = [];
