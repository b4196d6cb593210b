import type { FastifyInstance } from 'fastify';
import { activityLogsQuerySchema, type ActivityLog } from '@latchkey/contracts';
import { parseInput } from '../../http/parse-input.ts';
import { listActivityLogs } from './list-activity-logs.ts';

/** The owner's activity log (spec doc 2 §7). Registered inside the owner-guarded scope. */
export function registerActivityRoutes(app: FastifyInstance): void {
  app.get('/api/activity-logs', async (request): Promise<ActivityLog[]> => {
    const { applicationId } = parseInput(activityLogsQuerySchema, request.query);
    return listActivityLogs({ ctx: request.owner!, input: { applicationId } });
  });
}
