import type { RouteDefinition } from '../../http/route-definition.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  applicationParamsSchema,
  banLicenseRequestSchema,
  generateLicensesRequestSchema,
  licenseListQuerySchema,
  licenseParamsSchema,
  planParamsSchema,
  type DeletedResponse,
  type DeletedUnusedLicenses,
  type GeneratedLicenses,
  type License,
} from '@latchkey/contracts';
import type { Config } from '../../config.ts';
import { parseInput } from '../../http/parse-input.ts';
import { setPagingHeaders } from '../../http/paging-headers.ts';
import type { ActivityRecorder } from '../activity/index.ts';
import type { ApplicationEvents } from '../../events/application-events.ts';
import { banLicense, unbanLicense, type LicenseBanContext } from './ban-license.ts';
import { deleteLicense, deleteUnusedLicenses } from './delete-license.ts';
import { exportLicensesCsv } from './export-licenses-csv.ts';
import { generateLicenses } from './generate-licenses.ts';
import type { LicenseContext } from './license-context.ts';
import { listLicenses } from './list-licenses.ts';
import { revealLicenseKey } from './reveal-license-key.ts';
import { toLicenseResponse } from './to-license-response.ts';

/** An application's licence keys. Registered inside the owner-guarded scope. */
export function registerLicenseRoutes(
  app: FastifyInstance,
  {
    config,
    activity,
    applicationEvents,
  }: {
    config: Pick<Config, 'serverSecret'>;
    activity: Pick<ActivityRecorder, 'recordActivity'>;
    applicationEvents: ApplicationEvents;
  },
): void {
  const licenseCtx = (request: FastifyRequest): LicenseContext => ({
    ...request.owner!,
    serverSecret: config.serverSecret,
  });
  const banCtx = (request: FastifyRequest): LicenseBanContext => ({
    ...licenseCtx(request),
    activity,
    applicationEvents,
  });

  app.post('/api/applications/:id/licenses', async (request, reply) => {
    const { id } = parseInput(applicationParamsSchema, request.params);
    const body = parseInput(generateLicensesRequestSchema, request.body);
    const generated = await generateLicenses({
      ctx: licenseCtx(request),
      input: { applicationId: id, request: body },
    });
    return reply.status(201).send(generated satisfies GeneratedLicenses);
  });

  app.get('/api/applications/:id/licenses', async (request, reply): Promise<License[]> => {
    const { id } = parseInput(applicationParamsSchema, request.params);
    const query = parseInput(licenseListQuerySchema, request.query);
    const ctx = licenseCtx(request);
    const page = await listLicenses({ ctx, input: { applicationId: id, ...query } });
    setPagingHeaders(reply, query, page);
    const now = ctx.clock.now();
    return page.rows.map((row) => toLicenseResponse(row, now));
  });

  app.get('/api/applications/:id/licenses/export.csv', async (request, reply) => {
    const { id } = parseInput(applicationParamsSchema, request.params);
    const { status, planId, search } = parseInput(licenseListQuerySchema, request.query);
    const csv = await exportLicensesCsv({
      ctx: licenseCtx(request),
      input: { applicationId: id, status, planId, search },
    });
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="licenses-${id}.csv"`)
      .header('cache-control', 'no-store')
      .send(csv);
  });

  app.get(
    '/api/applications/:id/licenses/:licenseId/key',
    async (request, reply): Promise<{ key: string }> => {
      const { id, licenseId } = parseInput(licenseParamsSchema, request.params);
      reply.header('cache-control', 'no-store');
      return revealLicenseKey({
        ctx: licenseCtx(request),
        input: { applicationId: id, licenseId },
      });
    },
  );

  app.post('/api/applications/:id/licenses/:licenseId/ban', async (request): Promise<License> => {
    const { id, licenseId } = parseInput(licenseParamsSchema, request.params);
    const { reason } = parseInput(banLicenseRequestSchema, request.body);
    const banned = await banLicense({
      ctx: banCtx(request),
      input: { applicationId: id, licenseId, reason },
    });
    return toLicenseResponse(banned, request.owner!.clock.now());
  });

  app.post('/api/applications/:id/licenses/:licenseId/unban', async (request): Promise<License> => {
    const { id, licenseId } = parseInput(licenseParamsSchema, request.params);
    const unbanned = await unbanLicense({
      ctx: banCtx(request),
      input: { applicationId: id, licenseId },
    });
    return toLicenseResponse(unbanned, request.owner!.clock.now());
  });

  app.delete(
    '/api/applications/:id/licenses/:licenseId',
    async (request): Promise<DeletedResponse> => {
      const { id, licenseId } = parseInput(licenseParamsSchema, request.params);
      await deleteLicense({ ctx: request.owner!, input: { applicationId: id, licenseId } });
      return { success: true, message: 'Licence key deleted successfully' };
    },
  );

  app.post(
    '/api/applications/:id/plans/:planId/delete-unused',
    async (request): Promise<DeletedUnusedLicenses> => {
      const { id, planId } = parseInput(planParamsSchema, request.params);
      const deletedCount = await deleteUnusedLicenses({
        ctx: request.owner!,
        input: { applicationId: id, planId },
      });
      return {
        success: true,
        message: `${deletedCount} unused licence ${deletedCount === 1 ? 'key' : 'keys'} deleted`,
        deletedCount,
      };
    },
  );
}

/** The module's routes defined once (route-definition.ts); the rest are registered above. */
export const licenseRoutes: readonly RouteDefinition[] = [];
