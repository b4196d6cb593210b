import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  applicationParamsSchema,
  banLicenseRequestSchema,
  deletedResponseSchema,
  generateLicensesRequestSchema,
  generatedLicensesSchema,
  licenseListQuerySchema,
  licenseListSchema,
  licenseParamsSchema,
  licenseSchema,
  planListSchema,
  SEAT_FREED,
  seatLeaseListSchema,
  seatListQuerySchema,
  seatParamsSchema,
  type SeatLease,
  type GeneratedLicenses,
  type License,
  type Plan,
} from '@latchkey/contracts';
import type { AppDependencies } from '../../http/app-dependencies.ts';
import { setPagingHeaders } from '../../http/paging-headers.ts';
import { ok, paged } from '../../http/route-contract.ts';
import { routeDefiner } from '../../http/route-definition.ts';
import type { ActivityRecorder } from '../activity/index.ts';
import {
  banLicense,
  unbanLicense,
  deleteLicense,
  exportLicensesCsv,
  generateLicenses,
  getLicense,
  listLicenses,
  toLicenseResponse,
} from '../licenses/index.ts';
import { listPlans } from '../plans/index.ts';
import { freeSeat, listSeats } from '../seats/index.ts';
import { idempotent } from './management-descriptions.ts';
import { applicationIdsOf, registerApplicationRoutes } from './management-route-scopes.ts';
import { answerManagementWrite } from './management-write.ts';
import type { MailOutbox } from '../mail/index.ts';

type LicenseServices = Pick<AppDependencies, 'applicationEvents'> & {
  activity: Pick<ActivityRecorder, 'recordActivity'>;
  mail: MailOutbox;
};

const defineRoute = routeDefiner<LicenseServices>();

/** The context of a ban or an unban: it tells the application and the activity log. */
const banning = (request: FastifyRequest, services: LicenseServices) => ({
  ...request.management!,
  activity: services.activity,
  applicationEvents: services.applicationEvents,
});

/**
 * Licence keys and plans through the management API: what a shop sells and what a
 * bot bans, with the console's verbs. A generated key's whole text is in its answer (a shop
 * hands it to the buyer), so a retried generate must never mint a second one: send an
 * Idempotency-Key.
 */
export const managementLicenseRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/manage/v1/applications/:id/plans',
    caller: 'manage',
    tag: 'Management API',
    summary: 'An application\u2019s plans (what its keys grant)',
    params: applicationParamsSchema,
    responses: { 200: ok(planListSchema) },
    management: { scope: 'licenses:read', sameAs: 'GET /api/applications/:id/plans' },
    handle: ({ params, request }): Promise<Plan[]> =>
      listPlans({ ctx: request.management!, input: { applicationId: params.id } }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/manage/v1/applications/:id/licenses',
    caller: 'manage',
    tag: 'Management API',
    summary: 'List licence keys (paged; ?status, ?planId, ?search)',
    params: applicationParamsSchema,
    query: licenseListQuerySchema,
    responses: { 200: paged(licenseListSchema, 'Licence keys, newest first.') },
    management: { scope: 'licenses:read', sameAs: 'GET /api/applications/:id/licenses' },
    handle: async ({ params, query, request, reply }): Promise<License[]> => {
      const ctx = request.management!;
      const page = await listLicenses({ ctx, input: { applicationId: params.id, ...query } });
      setPagingHeaders(reply, query, page);
      const now = ctx.clock.now();
      return page.rows.map((row) => toLicenseResponse(row, now));
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/manage/v1/applications/:id/licenses',
    caller: 'manage',
    tag: 'Management API',
    summary: 'Generate licence keys of a plan',
    description: `The answer holds the whole keys: hand them to the buyer, or name the buyer\u2019s address in \`emailTo\` (at most 100 keys) and Latchkey mails them. An archived plan is a 409, and so is \`emailTo\` when the server sends no mail.${idempotent}`,
    params: applicationParamsSchema,
    body: generateLicensesRequestSchema,
    responses: { 201: ok(generatedLicensesSchema, 'Created.') },
    management: { scope: 'licenses:write', sameAs: 'POST /api/applications/:id/licenses' },
    handle: ({ params, body, request, reply }, { mail }) =>
      answerManagementWrite(request, reply, async () => {
        const generated = await generateLicenses({
          ctx: request.management!,
          input: { applicationId: params.id, request: body },
          mail,
        });
        return { status: 201, body: generated satisfies GeneratedLicenses };
      }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/manage/v1/applications/:id/licenses/export.csv',
    caller: 'manage',
    tag: 'Management API',
    summary: 'Export licence keys as CSV, whole keys included (the list\u2019s filters apply)',
    params: applicationParamsSchema,
    query: licenseListQuerySchema,
    responses: { 200: { description: 'CSV with a header row.', mediaType: 'text/csv' } },
    management: {
      scope: 'licenses:write',
      sameAs: 'GET /api/applications/:id/licenses/export.csv',
    },
    handle: async ({ params: { id: applicationId }, query, request, reply }) => {
      const { status, planId, search } = query;
      const csv = await exportLicensesCsv({
        ctx: request.management!,
        input: { applicationId, status, planId, search },
      });
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="licenses-${applicationId}.csv"`)
        .header('cache-control', 'no-store')
        .send(csv);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/manage/v1/applications/:id/licenses/:licenseId',
    caller: 'manage',
    tag: 'Management API',
    summary: 'One licence key (its text hidden)',
    params: licenseParamsSchema,
    responses: { 200: ok(licenseSchema) },
    management: { scope: 'licenses:read', sameAs: 'GET /api/applications/:id/licenses' },
    handle: async ({ params, request }): Promise<License> => {
      const ctx = request.management!;
      return toLicenseResponse(
        await getLicense({ ctx, input: applicationIdsOf(params) }),
        ctx.clock.now(),
      );
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/manage/v1/applications/:id/licenses/:licenseId/ban',
    caller: 'manage',
    tag: 'Management API',
    summary: 'Ban a licence key (a used key\u2019s grant is taken back)',
    params: licenseParamsSchema,
    body: banLicenseRequestSchema,
    responses: { 200: ok(licenseSchema) },
    management: {
      scope: 'licenses:write',
      sameAs: 'POST /api/applications/:id/licenses/:licenseId/ban',
    },
    handle: ({ params, body: { reason }, request, reply }, services) =>
      answerManagementWrite(request, reply, async () => {
        const ctx = banning(request, services);
        const banned = await banLicense({ ctx, input: { ...applicationIdsOf(params), reason } });
        return { status: 200, body: toLicenseResponse(banned, ctx.clock.now()) satisfies License };
      }),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/manage/v1/applications/:id/licenses/:licenseId/unban',
    caller: 'manage',
    tag: 'Management API',
    summary: 'Unban a licence key',
    params: licenseParamsSchema,
    responses: { 200: ok(licenseSchema) },
    management: {
      scope: 'licenses:write',
      sameAs: 'POST /api/applications/:id/licenses/:licenseId/unban',
    },
    handle: ({ params, request, reply }, services) =>
      answerManagementWrite(request, reply, async () => {
        const ctx = banning(request, services);
        const unbanned = await unbanLicense({ ctx, input: applicationIdsOf(params) });
        return {
          status: 200,
          body: toLicenseResponse(unbanned, ctx.clock.now()) satisfies License,
        };
      }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/manage/v1/applications/:id/licenses/:licenseId',
    caller: 'manage',
    tag: 'Management API',
    summary: 'Delete a licence key (what a used key granted stays; a ban takes it back)',
    params: licenseParamsSchema,
    responses: { 200: ok(deletedResponseSchema) },
    management: {
      scope: 'licenses:write',
      sameAs: 'DELETE /api/applications/:id/licenses/:licenseId',
    },
    handle: ({ params, request, reply }) =>
      answerManagementWrite(request, reply, async () => {
        await deleteLicense({ ctx: request.management!, input: applicationIdsOf(params) });
        return {
          status: 200,
          body: { success: true, message: 'Licence key deleted successfully' },
        };
      }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/manage/v1/applications/:id/seats',
    caller: 'manage',
    tag: 'Management API',
    summary: 'The floating seats in use now (paged; ?search by holder or HWID)',
    params: applicationParamsSchema,
    query: seatListQuerySchema,
    responses: { 200: paged(seatLeaseListSchema, 'Seats in use, oldest lease first.') },
    management: { scope: 'licenses:read', sameAs: 'GET /api/applications/:id/seats' },
    handle: async ({ params, query, request, reply }): Promise<SeatLease[]> => {
      const page = await listSeats({
        ctx: request.management!,
        input: { applicationId: params.id, ...query },
      });
      setPagingHeaders(reply, query, page);
      return page.rows;
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/manage/v1/applications/:id/seats/:leaseId',
    caller: 'manage',
    tag: 'Management API',
    summary: 'Free a seat in use (its session ends with it)',
    params: seatParamsSchema,
    responses: { 200: ok(deletedResponseSchema) },
    management: {
      scope: 'licenses:write',
      sameAs: 'DELETE /api/applications/:id/seats/:leaseId',
    },
    handle: ({ params, request, reply }, services) =>
      answerManagementWrite(request, reply, async () => {
        await freeSeat({
          ctx: { ...request.management!, applicationEvents: services.applicationEvents },
          input: { applicationId: params.id, leaseId: params.leaseId },
        });
        return { status: 200, body: { success: true, message: SEAT_FREED } };
      }),
  }),
];

export function registerManagementLicenseRoutes(app: FastifyInstance, deps: LicenseServices): void {
  registerApplicationRoutes(app, managementLicenseRoutes, deps);
}
