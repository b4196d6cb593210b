import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  applicationParamsSchema,
  banLicenseRequestSchema,
  deletedResponseSchema,
  deletedUnusedLicensesSchema,
  generatedLicensesSchema,
  generateLicensesRequestSchema,
  licenseListQuerySchema,
  licenseListSchema,
  licenseParamsSchema,
  licenseSchema,
  planParamsSchema,
  revealedLicenseSchema,
  emailLicenseRequestSchema,
  mailQueuedSchema,
  type DeletedResponse,
  type DeletedUnusedLicenses,
  type GeneratedLicenses,
  type License,
} from '@latchkey/contracts';
import type { Config } from '../../config.ts';
import { setPagingHeaders } from '../../http/paging-headers.ts';
import { ok, paged } from '../../http/route-contract.ts';
import { registerRoutes, routeDefiner } from '../../http/route-definition.ts';
import type { ActivityRecorder } from '../activity/index.ts';
import type { ApplicationEvents } from '../../events/application-events.ts';
import { banLicense, unbanLicense, type LicenseBanContext } from './ban-license.ts';
import { deleteLicense, deleteUnusedLicenses } from './delete-license.ts';
import { exportLicensesCsv } from './export-licenses-csv.ts';
import { generateLicenses } from './generate-licenses.ts';
import type { LicenseContext } from './license-context.ts';
import { listLicenses } from './list-licenses.ts';
import { revealLicenseKey } from './reveal-license-key.ts';
import { emailLicenseKey } from './email-license-key.ts';
import type { MailOutbox } from '../mail/index.ts';
import { toLicenseResponse } from './to-license-response.ts';

interface LicenseServices {
  config: Pick<Config, 'serverSecret'>;
  activity: Pick<ActivityRecorder, 'recordActivity'>;
  applicationEvents: ApplicationEvents;
  mail: MailOutbox;
}

const defineRoute = routeDefiner<LicenseServices>();

const licenseCtx = (request: FastifyRequest, { config }: LicenseServices): LicenseContext => ({
  ...request.owner!,
  serverSecret: config.serverSecret,
});

const banCtx = (request: FastifyRequest, services: LicenseServices): LicenseBanContext => ({
  ...licenseCtx(request, services),
  activity: services.activity,
  applicationEvents: services.applicationEvents,
});

/** An application's licence keys, for its owner. */
export const licenseRoutes = [
  defineRoute({
    method: 'POST',
    path: '/api/applications/:id/licenses',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'Licences',
    summary: 'Generate licence keys',
    description:
      'Each `X` of the mask is a random character of the case\u2019s alphabet (at least 80 bits in all, else 400). The answer holds the whole keys. With `emailTo` (at most 100 keys) they are also mailed, in one message, to that address. An archived plan is a 409, and so is `emailTo` when the server sends no mail.',
    params: applicationParamsSchema,
    body: generateLicensesRequestSchema,
    responses: { 201: ok(generatedLicensesSchema, 'Created.') },
    errors: [409],
    handle: async ({ params, body, request, reply }, services) => {
      const generated = await generateLicenses({
        ctx: licenseCtx(request, services),
        input: { applicationId: params.id, request: body },
        mail: services.mail,
      });
      return reply.status(201).send(generated satisfies GeneratedLicenses);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/applications/:id/licenses',
    permission: 'signed_in',
    caller: 'owner',
    tag: 'Licences',
    summary: 'List licence keys',
    description:
      '`key` is the display form (its first characters, where the rest keeps at least 80 bits unseen, and its last four; the rest hidden). `search` matches a whole key, its first characters (at least four), its last four characters, the note or the username of whoever used it.',
    params: applicationParamsSchema,
    query: licenseListQuerySchema,
    responses: { 200: paged(licenseListSchema, 'Licence keys, newest first.') },
    handle: async ({ params, query, request, reply }, services): Promise<License[]> => {
      const ctx = licenseCtx(request, services);
      const page = await listLicenses({ ctx, input: { applicationId: params.id, ...query } });
      setPagingHeaders(reply, query, page);
      const now = ctx.clock.now();
      return page.rows.map((row) => toLicenseResponse(row, now));
    },
  }),
  // A key's text is a credential, like a webhook's secret: revealing or exporting keys goes
  // with the right to manage the application, not with a read of its data.
  defineRoute({
    method: 'GET',
    path: '/api/applications/:id/licenses/export.csv',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'Licences',
    summary: 'Export licence keys as CSV',
    description: 'The same filters as the list; the whole keys, newest first, streamed.',
    params: applicationParamsSchema,
    query: licenseListQuerySchema,
    responses: { 200: { description: 'CSV with a header row.', mediaType: 'text/csv' } },
    handle: async ({ params, query, request, reply }, services) => {
      const { id } = params;
      const { status, planId, search } = query;
      const csv = await exportLicensesCsv({
        ctx: licenseCtx(request, services),
        input: { applicationId: id, status, planId, search },
      });
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="licenses-${id}.csv"`)
        .header('cache-control', 'no-store')
        .send(csv);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/applications/:id/licenses/:licenseId/key',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'Licences',
    summary: 'Reveal the whole text of a licence key',
    params: licenseParamsSchema,
    responses: { 200: ok(revealedLicenseSchema) },
    handle: async ({ params, request, reply }, services): Promise<{ key: string }> => {
      reply.header('cache-control', 'no-store');
      return revealLicenseKey({
        ctx: licenseCtx(request, services),
        input: { applicationId: params.id, licenseId: params.licenseId },
      });
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/applications/:id/licenses/:licenseId/ban',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'Licences',
    summary: 'Ban a licence key',
    description:
      'An unused key can no longer be redeemed; a used key\u2019s grant is taken back from the subscription it extended. Banning a banned key only updates the reason.',
    params: licenseParamsSchema,
    body: banLicenseRequestSchema,
    responses: { 200: ok(licenseSchema) },
    handle: async ({ params, body, request }, services): Promise<License> => {
      const banned = await banLicense({
        ctx: banCtx(request, services),
        input: { applicationId: params.id, licenseId: params.licenseId, reason: body.reason },
      });
      return toLicenseResponse(banned, request.owner!.clock.now());
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/applications/:id/licenses/:licenseId/unban',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'Licences',
    summary: 'Lift a licence key\u2019s ban',
    description: 'A used key\u2019s grant is given again. A key not banned is left as it is.',
    params: licenseParamsSchema,
    responses: { 200: ok(licenseSchema) },
    handle: async ({ params, request }, services): Promise<License> => {
      const unbanned = await unbanLicense({
        ctx: banCtx(request, services),
        input: { applicationId: params.id, licenseId: params.licenseId },
      });
      return toLicenseResponse(unbanned, request.owner!.clock.now());
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/applications/:id/licenses/:licenseId',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'Licences',
    summary: 'Delete a licence key',
    params: licenseParamsSchema,
    responses: { 200: ok(deletedResponseSchema) },
    handle: async ({ params, request }): Promise<DeletedResponse> => {
      await deleteLicense({
        ctx: request.owner!,
        input: { applicationId: params.id, licenseId: params.licenseId },
      });
      return { success: true, message: 'Licence key deleted successfully' };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/applications/:id/plans/:planId/delete-unused',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'Licences',
    summary: 'Delete every unused key of a plan',
    description: 'Unused keys past their redeem-by date included. Answers how many went.',
    params: planParamsSchema,
    responses: { 200: ok(deletedUnusedLicensesSchema) },
    handle: async ({ params, request }): Promise<DeletedUnusedLicenses> => {
      const deletedCount = await deleteUnusedLicenses({
        ctx: request.owner!,
        input: { applicationId: params.id, planId: params.planId },
      });
      return {
        success: true,
        message: `${deletedCount} unused licence ${deletedCount === 1 ? 'key' : 'keys'} deleted`,
        deletedCount,
      };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/applications/:id/licenses/:licenseId/email',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'Licences',
    summary: 'Mail one key to an address',
    description:
      'The whole key, the plan it grants and how to redeem it, in the application\u2019s licence key mail. 409 for a banned key or when the server sends no mail.',
    params: licenseParamsSchema,
    body: emailLicenseRequestSchema,
    responses: { 202: ok(mailQueuedSchema, 'Queued.') },
    errors: [409],
    handle: async ({ params, body, request, reply }, services) => {
      const queued = await emailLicenseKey({
        ctx: licenseCtx(request, services),
        input: { applicationId: params.id, licenseId: params.licenseId, to: body.to },
        mail: services.mail,
      });
      return reply.status(202).send(queued);
    },
  }),
];

/** An application's licence keys. Registered inside the owner-guarded scope. */
export function registerLicenseRoutes(app: FastifyInstance, services: LicenseServices): void {
  registerRoutes(app, licenseRoutes, services);
}
