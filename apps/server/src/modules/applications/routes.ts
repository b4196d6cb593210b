import type { RouteDefinition } from '../../http/route-definition.ts';
import type { FastifyInstance } from 'fastify';
import {
  applicationParamsSchema,
  createApplicationRequestSchema,
  updateApplicationRequestSchema,
  type Application,
  type ApplicationStats,
  type DeletedResponse,
} from '@latchkey/contracts';
import type { AppDependencies } from '../../http/app-dependencies.ts';
import { parseInput } from '../../http/parse-input.ts';
import { createApplication } from './create-application.ts';
import { deleteApplication } from './delete-application.ts';
import { getApplicationStats } from './get-application-stats.ts';
import { listApplications } from './list-applications.ts';
import { toApplicationResponse } from './to-application-response.ts';
import { updateApplication } from './update-application.ts';

/** The owner's applications. Registered inside the owner-guarded scope. */
export function registerApplicationRoutes(
  app: FastifyInstance,
  deps: Pick<AppDependencies, 'config' | 'applicationEvents'>,
): void {
  const { serverSecret } = deps.config;
  const { applicationEvents } = deps;

  app.get('/api/applications', async (request): Promise<Application[]> => {
    const applications = await listApplications({ ctx: request.owner! });
    return applications.map(toApplicationResponse);
  });

  app.post('/api/applications', async (request, reply) => {
    const input = parseInput(createApplicationRequestSchema, request.body);
    const application = await createApplication({
      ctx: { ...request.owner!, serverSecret },
      input,
    });
    return reply.status(201).send(toApplicationResponse(application) satisfies Application);
  });

  app.put('/api/applications/:id', async (request): Promise<Application> => {
    const { id } = parseInput(applicationParamsSchema, request.params);
    const changes = parseInput(updateApplicationRequestSchema, request.body);
    const application = await updateApplication({
      ctx: { ...request.owner!, applicationEvents },
      input: { applicationId: id, changes },
    });
    return toApplicationResponse(application);
  });

  app.delete('/api/applications/:id', async (request): Promise<DeletedResponse> => {
    const { id } = parseInput(applicationParamsSchema, request.params);
    await deleteApplication({
      ctx: { ...request.owner!, applicationEvents },
      input: { applicationId: id },
    });
    return { success: true, message: 'Application deleted successfully' };
  });

  app.get('/api/applications/:id/stats', async (request): Promise<ApplicationStats> => {
    const { id } = parseInput(applicationParamsSchema, request.params);
    const stats = await getApplicationStats({ ctx: request.owner!, input: { applicationId: id } });
    return { ...stats, lastActivity: stats.lastActivity?.toISOString() ?? null };
  });
}

/** The module's routes defined once (route-definition.ts); the rest are registered above. */
export const applicationRoutes: readonly RouteDefinition[] = [];
