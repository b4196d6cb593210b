import type { FastifyInstance } from 'fastify';
import {
  activityChartQuerySchema,
  activityChartSchema,
  applicationParamsSchema,
  type ActivityChart,
} from '@latchkey/contracts';
import { ok } from '../../http/route-contract.ts';
import { registerRoutes, routeDefiner } from '../../http/route-definition.ts';
import { getActivityChart } from './get-activity-chart.ts';

const defineRoute = routeDefiner<void>();

/** The activity charts of the application page and the dashboard. */
export const activityChartRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/dashboard/activity-chart',
    permission: 'signed_in',
    caller: 'owner',
    tag: 'Dashboard',
    summary: 'Activity per hour or day across the owner\u2019s applications',
    description:
      'Logins, failed logins, registrations, new sessions and live sessions per hour (range 24h) or per UTC day (7d, 30d), zero-filled, from pre-aggregated buckets.',
    query: activityChartQuerySchema,
    responses: { 200: ok(activityChartSchema) },
    handle: async ({ query, request }): Promise<ActivityChart> =>
      getActivityChart({ ctx: request.owner!, input: { range: query.range } }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/applications/:id/activity-chart',
    permission: 'signed_in',
    caller: 'owner',
    tag: 'Applications',
    summary: 'Activity per hour or day of one application',
    description:
      'Logins, failed logins, registrations, new sessions and live sessions per hour (range 24h) or per UTC day (7d, 30d), zero-filled, from pre-aggregated buckets.',
    params: applicationParamsSchema,
    query: activityChartQuerySchema,
    responses: { 200: ok(activityChartSchema) },
    errors: [404],
    handle: async ({ params, query, request }): Promise<ActivityChart> =>
      getActivityChart({
        ctx: request.owner!,
        input: { applicationId: params.id, range: query.range },
      }),
  }),
];

/** The activity charts of the application page and the dashboard. */
export function registerActivityChartRoutes(app: FastifyInstance): void {
  registerRoutes(app, activityChartRoutes, undefined);
}
