import {
  applicationParamsSchema,
  createPlanRequestSchema,
  deletedResponseSchema,
  planListSchema,
  planParamsSchema,
  planSchema,
  updatePlanRequestSchema,
} from '@latchkey/contracts';
import type { ApplicationEvents } from '../../events/application-events.ts';
import { ok } from '../../http/route-contract.ts';
import { routeDefiner } from '../../http/route-definition.ts';
import { createPlan } from './create-plan.ts';
import { deletePlan } from './delete-plan.ts';
import { listPlans } from './list-plans.ts';
import { updatePlan } from './update-plan.ts';

const defineRoute = routeDefiner<{ applicationEvents: ApplicationEvents }>();

/** An application's plans, for its owner. */
export const planRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/applications/:id/plans',
    permission: 'signed_in',
    caller: 'owner',
    tag: 'Plans',
    summary: 'List an application\u2019s plans, archived ones included, by name',
    params: applicationParamsSchema,
    responses: { 200: ok(planListSchema) },
    handle: ({ params, request }) =>
      listPlans({ ctx: request.owner!, input: { applicationId: params.id } }),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/applications/:id/plans',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'Plans',
    summary: 'Create a plan',
    description:
      'Entitlement codes are deduplicated and sorted. A name the application already has is a 409.',
    params: applicationParamsSchema,
    body: createPlanRequestSchema,
    responses: { 201: ok(planSchema, 'Created.') },
    errors: [409],
    handle: async ({ params, body, request, reply }) => {
      const created = await createPlan({
        ctx: request.owner!,
        input: { applicationId: params.id, plan: body },
      });
      return reply.status(201).send(created);
    },
  }),
  defineRoute({
    method: 'PUT',
    path: '/api/applications/:id/plans/:planId',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'Plans',
    summary: 'Update or archive a plan',
    description: 'Absent fields stay as they are. An archived plan gets no new keys.',
    params: planParamsSchema,
    body: updatePlanRequestSchema,
    responses: { 200: ok(planSchema) },
    errors: [409],
    handle: ({ params, body, request }, { applicationEvents }) =>
      updatePlan({
        ctx: { ...request.owner!, applicationEvents },
        input: { applicationId: params.id, planId: params.planId, changes: body },
      }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/applications/:id/plans/:planId',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'Plans',
    summary: 'Delete a plan',
    description: 'A plan that licence keys or subscriptions use is a 409: archive it instead.',
    params: planParamsSchema,
    responses: { 200: ok(deletedResponseSchema) },
    errors: [409],
    handle: async ({ params, request }) => {
      await deletePlan({
        ctx: request.owner!,
        input: { applicationId: params.id, planId: params.planId },
      });
      return { success: true, message: 'Plan deleted successfully' };
    },
  }),
];
