import type { FastifyInstance } from 'fastify';
import {
  applicationListSchema,
  applicationParamsSchema,
  applicationSchema,
  applicationStatsSchema,
  createApplicationRequestSchema,
  deletedResponseSchema,
  updateApplicationRequestSchema,
  type Application,
  type ApplicationStats,
  type DeletedResponse,
} from '@latchkey/contracts';
import type { AppDependencies } from '../../http/app-dependencies.ts';
import type { ApplicationEvents } from '../../events/application-events.ts';
import { ok } from '../../http/route-contract.ts';
import { registerRoutes, routeDefiner } from '../../http/route-definition.ts';
import { createApplication } from './create-application.ts';
import { deleteApplication } from './delete-application.ts';
import { getApplicationStats } from './get-application-stats.ts';
import { listApplications } from './list-applications.ts';
import { toApplicationResponse } from './to-application-response.ts';
import { updateApplication } from './update-application.ts';
import type { MailOutbox } from '../mail/index.ts';

const defineRoute = routeDefiner<{
  serverSecret: string;
  applicationEvents: ApplicationEvents;
  /** Mail features cannot be switched on while the server sends no mail. */
  isMailAvailable: boolean;
}>();

/** The owner's applications. */
export const applicationRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/applications',
    permission: 'signed_in',
    caller: 'owner',
    tag: 'Applications',
    summary: 'List applications',
    responses: { 200: ok(applicationListSchema) },
    handle: async ({ request }, { serverSecret }): Promise<Application[]> => {
      const applications = await listApplications({ ctx: request.owner! });
      return applications.map((application) => toApplicationResponse(application, serverSecret));
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/applications',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'Applications',
    summary: 'Create an application',
    body: createApplicationRequestSchema,
    responses: { 201: ok(applicationSchema, 'Created.') },
    handle: async ({ body, request, reply }, { serverSecret }) => {
      const application = await createApplication({
        ctx: { ...request.owner!, serverSecret },
        input: body,
      });
      return reply
        .status(201)
        .send(toApplicationResponse(application, serverSecret) satisfies Application);
    },
  }),
  defineRoute({
    method: 'PUT',
    path: '/api/applications/:id',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'Applications',
    summary: 'Update an application',
    description:
      'Absent fields stay as they are. 409 when a mail feature (requireVerifiedEmail, newDeviceMail, expiryReminderDays) is switched on while the server sends no mail, or when another application uses the same KeyAuth owner id and name. Turning KeyAuth compatibility on fills in what is missing: a generated owner id, the application\u2019s name, a generated secret.',
    params: applicationParamsSchema,
    body: updateApplicationRequestSchema,
    responses: { 200: ok(applicationSchema) },
    errors: [409],
    handle: async (
      { params, body, request },
      { applicationEvents, isMailAvailable, serverSecret },
    ): Promise<Application> => {
      const application = await updateApplication({
        ctx: { ...request.owner!, applicationEvents, isMailAvailable, serverSecret },
        input: { applicationId: params.id, changes: body },
      });
      return toApplicationResponse(application, serverSecret);
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/applications/:id',
    permission: 'delete_applications',
    caller: 'owner',
    tag: 'Applications',
    summary: 'Delete an application and its end users',
    params: applicationParamsSchema,
    responses: { 200: ok(deletedResponseSchema) },
    handle: async ({ params, request }, { applicationEvents }): Promise<DeletedResponse> => {
      await deleteApplication({
        ctx: { ...request.owner!, applicationEvents },
        input: { applicationId: params.id },
      });
      return { success: true, message: 'Application deleted successfully' };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/applications/:id/stats',
    permission: 'signed_in',
    caller: 'owner',
    tag: 'Applications',
    summary: 'Statistics of one application',
    params: applicationParamsSchema,
    responses: { 200: ok(applicationStatsSchema) },
    handle: async ({ params, request }): Promise<ApplicationStats> => {
      const stats = await getApplicationStats({
        ctx: request.owner!,
        input: { applicationId: params.id },
      });
      return { ...stats, lastActivity: stats.lastActivity?.toISOString() ?? null };
    },
  }),
];

/** The owner's applications. Registered inside the owner-guarded scope. */
export function registerApplicationRoutes(
  app: FastifyInstance,
  deps: Pick<AppDependencies, 'config' | 'applicationEvents'> & { mail: MailOutbox },
): void {
  registerRoutes(app, applicationRoutes, {
    serverSecret: deps.config.serverSecret,
    applicationEvents: deps.applicationEvents,
    isMailAvailable: deps.mail.isAvailable,
  });
}
