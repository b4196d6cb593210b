import type { FastifyInstance } from 'fastify';
import {
  activityLogListSchema,
  activityLogStatsQuerySchema,
  activityLogStatsSchema,
  activityLogsQuerySchema,
  type ActivityLog,
  type ActivityLogStats,
} from '@latchkey/contracts';
import { setPagingHeaders } from '../../http/paging-headers.ts';
import { ok, paged } from '../../http/route-contract.ts';
import { registerRoutes, routeDefiner } from '../../http/route-definition.ts';
import { listActivityLogs } from './list-activity-logs.ts';
import { summarizeActivityLogs } from './summarize-activity-logs.ts';

const defineRoute = routeDefiner<void>();

/** The owner's activity log. */
export const activityRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/activity-logs',
    permission: 'signed_in',
    caller: 'owner',
    tag: 'Activity',
    summary: 'One page of the activity log, newest first, filtered and searched',
    query: activityLogsQuerySchema,
    responses: { 200: paged(activityLogListSchema, 'Activity-log rows, newest first.') },
    errors: [404],
    handle: async ({ query, request, reply }): Promise<ActivityLog[]> => {
      const page = await listActivityLogs({ ctx: request.owner!, input: query });
      setPagingHeaders(reply, query, page);
      return page.rows;
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/activity-logs/stats',
    permission: 'signed_in',
    caller: 'owner',
    tag: 'Activity',
    summary: 'Totals over every activity-log row the same filters match',
    query: activityLogStatsQuerySchema,
    responses: { 200: ok(activityLogStatsSchema) },
    errors: [404],
    handle: async ({ query, request }): Promise<ActivityLogStats> =>
      summarizeActivityLogs({ ctx: request.owner!, input: query }),
  }),
];

/** The owner's activity log. Registered inside the owner-guarded scope. */
export function registerActivityRoutes(app: FastifyInstance): void {
  registerRoutes(app, activityRoutes, undefined);
}
