import type { FastifyInstance } from 'fastify';
import {
  applicationParamsSchema,
  createPlanRequestSchema,
  planParamsSchema,
  updatePlanRequestSchema,
  type DeletedResponse,
  type Plan,
} from '@latchkey/contracts';
import { parseInput } from '../../http/parse-input.ts';
import type { ApplicationEvents } from '../../events/application-events.ts';
import { createPlan } from './create-plan.ts';
import { deletePlan } from './delete-plan.ts';
import { listPlans } from './list-plans.ts';
import { updatePlan } from './update-plan.ts';

/** An application's plans. Registered inside the owner-guarded scope. */
export function registerPlanRoutes(
  app: FastifyInstance,
  { applicationEvents }: { applicationEvents: ApplicationEvents },
): void {
  app.get('/api/applications/:id/plans', async (request): Promise<Plan[]> => {
    const { id } = parseInput(applicationParamsSchema, request.params);
    return listPlans({ ctx: request.owner!, input: { applicationId: id } });
  });

  app.post('/api/applications/:id/plans', async (request, reply) => {
    const { id } = parseInput(applicationParamsSchema, request.params);
    const plan = parseInput(createPlanRequestSchema, request.body);
    const created = await createPlan({ ctx: request.owner!, input: { applicationId: id, plan } });
    return reply.status(201).send(created satisfies Plan);
  });

  app.put('/api/applications/:id/plans/:planId', async (request): Promise<Plan> => {
    const { id, planId } = parseInput(planParamsSchema, request.params);
    const changes = parseInput(updatePlanRequestSchema, request.body);
    return updatePlan({
      ctx: { ...request.owner!, applicationEvents },
      input: { applicationId: id, planId, changes },
    });
  });

  app.delete('/api/applications/:id/plans/:planId', async (request): Promise<DeletedResponse> => {
    const { id, planId } = parseInput(planParamsSchema, request.params);
    await deletePlan({ ctx: request.owner!, input: { applicationId: id, planId } });
    return { success: true, message: 'Plan deleted successfully' };
  });
}
