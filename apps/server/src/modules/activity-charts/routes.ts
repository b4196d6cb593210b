import type { RouteDefinition } from '../../http/route-definition.ts';
import type { FastifyInstance } from 'fastify';
import {
  activityChartQuerySchema,
  applicationParamsSchema,
  type ActivityChart,
} from '@latchkey/contracts';
import { parseInput } from '../../http/parse-input.ts';
import { getActivityChart } from './get-activity-chart.ts';

/** The activity charts of the application page and the dashboard. */
export function registerActivityChartRoutes(app: FastifyInstance): void {
  app.get('/api/dashboard/activity-chart', async (request): Promise<ActivityChart> => {
    const { range } = parseInput(activityChartQuerySchema, request.query);
    return getActivityChart({ ctx: request.owner!, input: { range } });
  });

  app.get('/api/applications/:id/activity-chart', async (request): Promise<ActivityChart> => {
    const { id } = parseInput(applicationParamsSchema, request.params);
    const { range } = parseInput(activityChartQuerySchema, request.query);
    return getActivityChart({ ctx: request.owner!, input: { applicationId: id, range } });
  });
}

/** The module's routes defined once (route-definition.ts); the rest are registered above. */
export const activityChartRoutes: readonly RouteDefinition[] = [];
