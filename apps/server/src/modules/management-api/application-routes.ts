import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  applicationParamsSchema,
  applicationSchema,
  applicationStatsSchema,
  type Application,
  type ApplicationStats,
} from '@latchkey/contracts';
import { ok } from '../../http/route-contract.ts';
import { registerRoutes, routeDefiner } from '../../http/route-definition.ts';
import {
  getApplicationStats,
  listApplications,
  toApplicationResponse,
} from '../applications/index.ts';
import { loadOwnedApplication } from '../../ownership/load-owned-application.ts';
import { registerApplicationRoutes } from './management-route-scopes.ts';
import { isApplicationReachable } from './reachable-applications.ts';

const defineRoute = routeDefiner<{ serverSecret: string }>();

const applicationListRoute = defineRoute({
  method: 'GET',
  path: '/api/manage/v1/applications',
  caller: 'manage',
  tag: 'Management API',
  summary: 'List the applications the token may reach',
  responses: { 200: ok(z.array(applicationSchema)) },
  management: { scope: 'applications:read', sameAs: 'GET /api/applications' },
  handle: async ({ request }, { serverSecret }): Promise<Application[]> => {
    const ctx = request.management!;
    const applications = await listApplications({ ctx });
    return applications
      .filter((application) => isApplicationReachable(ctx, application.id))
      .map((application) => toApplicationResponse(application, serverSecret));
  },
});

/** The routes naming one application: registered where its reach is checked first. */
const applicationRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/manage/v1/applications/:id',
    caller: 'manage',
    tag: 'Management API',
    summary: 'One application',
    params: applicationParamsSchema,
    responses: { 200: ok(applicationSchema) },
    management: { scope: 'applications:read', sameAs: 'GET /api/applications' },
    handle: async ({ params, request }, { serverSecret }): Promise<Application> =>
      toApplicationResponse(
        await loadOwnedApplication({
          ctx: request.management!,
          input: { applicationId: params.id },
        }),
        serverSecret,
      ),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/manage/v1/applications/:id/stats',
    caller: 'manage',
    tag: 'Management API',
    summary: 'An application\u2019s numbers, as its console page shows them',
    params: applicationParamsSchema,
    responses: { 200: ok(applicationStatsSchema) },
    management: { scope: 'applications:read', sameAs: 'GET /api/applications/:id/stats' },
    handle: async ({ params, request }): Promise<ApplicationStats> => {
      const stats = await getApplicationStats({
        ctx: request.management!,
        input: { applicationId: params.id },
      });
      return { ...stats, lastActivity: stats.lastActivity?.toISOString() ?? null };
    },
  }),
];

/** Applications through the management API: the console's verbs, within the token's reach. */
export const managementApplicationRoutes = [applicationListRoute, ...applicationRoutes];

export function registerManagementApplicationRoutes(
  app: FastifyInstance,
  services: { serverSecret: string },
): void {
  registerRoutes(app, [applicationListRoute], services);
  registerApplicationRoutes(app, applicationRoutes, services);
}
