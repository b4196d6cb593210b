import type { FastifyInstance } from 'fastify';
import { getDashboardStats } from './get-dashboard-stats.ts';

export function registerDashboardRoutes(app: FastifyInstance): void {
  app.get('/api/dashboard/stats', async (request) => getDashboardStats({ ctx: request.owner! }));
}
