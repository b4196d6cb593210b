import type { RouteDefinition } from '../../http/route-definition.ts';
import type { FastifyInstance } from 'fastify';
import {
  applicationParamsSchema,
  type Application,
  type ApplicationStats,
} from '@latchkey/contracts';
import { parseInput } from '../../http/parse-input.ts';
import {
  getApplicationStats,
  listApplications,
  toApplicationResponse,
} from '../applications/index.ts';
import { loadOwnedApplication } from '../../ownership/load-owned-application.ts';
import { assertApplicationReachable, isApplicationReachable } from './reachable-applications.ts';

/** Applications through the management API: the console's verbs, within the token's reach. */
export function registerManagementApplicationRoutes(app: FastifyInstance): void {
  app.get('/applications', async (request): Promise<Application[]> => {
    const ctx = request.management!;
    const applications = await listApplications({ ctx });
    return applications
      .filter((application) => isApplicationReachable(ctx, application.id))
      .map(toApplicationResponse);
  });

  app.get('/applications/:id', async (request): Promise<Application> => {
    const ctx = request.management!;
    const { id } = parseInput(applicationParamsSchema, request.params);
    assertApplicationReachable(ctx, id);
    return toApplicationResponse(await loadOwnedApplication({ ctx, input: { applicationId: id } }));
  });

  app.get('/applications/:id/stats', async (request): Promise<ApplicationStats> => {
    const ctx = request.management!;
    const { id } = parseInput(applicationParamsSchema, request.params);
    assertApplicationReachable(ctx, id);
    const stats = await getApplicationStats({ ctx, input: { applicationId: id } });
    return { ...stats, lastActivity: stats.lastActivity?.toISOString() ?? null };
  });
}

/** The module's routes defined once (route-definition.ts); the rest are registered above. */
export const managementApplicationRoutes: readonly RouteDefinition[] = [];
