import type { RouteDefinition } from '../../http/route-definition.ts';
import type { FastifyInstance } from 'fastify';
import {
  activityLogStatsQuerySchema,
  activityLogsQuerySchema,
  type ActivityLog,
  type ActivityLogStats,
} from '@latchkey/contracts';
import { parseInput } from '../../http/parse-input.ts';
import { setPagingHeaders } from '../../http/paging-headers.ts';
import { listActivityLogs } from './list-activity-logs.ts';
import { summarizeActivityLogs } from './summarize-activity-logs.ts';

/** The owner's activity log. Registered inside the owner-guarded scope. */
export function registerActivityRoutes(app: FastifyInstance): void {
  app.get('/api/activity-logs', async (request, reply): Promise<ActivityLog[]> => {
    const query = parseInput(activityLogsQuerySchema, request.query);
    const page = await listActivityLogs({ ctx: request.owner!, input: query });
    setPagingHeaders(reply, query, page);
    return page.rows;
  });

  app.get('/api/activity-logs/stats', async (request): Promise<ActivityLogStats> => {
    const query = parseInput(activityLogStatsQuerySchema, request.query);
    return summarizeActivityLogs({ ctx: request.owner!, input: query });
  });
}

/** The module's routes defined once (route-definition.ts); the rest are registered above. */
export const activityRoutes: readonly RouteDefinition[] = [];
