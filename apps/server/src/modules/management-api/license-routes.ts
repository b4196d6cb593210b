import type { RouteDefinition } from '../../http/route-definition.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  applicationParamsSchema,
  banLicenseRequestSchema,
  generateLicensesRequestSchema,
  licenseListQuerySchema,
  licenseParamsSchema,
  type GeneratedLicenses,
  type License,
  type Plan,
} from '@latchkey/contracts';
import type { AppDependencies } from '../../http/app-dependencies.ts';
import { parseInput } from '../../http/parse-input.ts';
import { setPagingHeaders } from '../../http/paging-headers.ts';
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
import { answerManagementWrite } from './management-write.ts';
import { reachableParams } from './reachable-applications.ts';

/**
 * Licence keys and plans through the management API: what a shop sells and what a
 * bot bans, with the console's verbs. A generated key's whole text is in its answer (a shop
 * hands it to the buyer), so a retried generate must never mint a second one: send an
 * Idempotency-Key.
 */
export function registerManagementLicenseRoutes(
  app: FastifyInstance,
  deps: Pick<AppDependencies, 'applicationEvents'> & {
    activity: Pick<ActivityRecorder, 'recordActivity'>;
  },
): void {
  const reachable = (request: FastifyRequest) => {
    const { ctx, ids } = reachableParams(request, applicationParamsSchema);
    return { ctx, applicationId: ids.applicationId };
  };
  const reachableLicense = (request: FastifyRequest) =>
    reachableParams(request, licenseParamsSchema);
  const banning = (request: FastifyRequest) => ({
    ...request.management!,
    activity: deps.activity,
    applicationEvents: deps.applicationEvents,
  });

  app.get('/applications/:id/plans', async (request): Promise<Plan[]> => {
    const { ctx, applicationId } = reachable(request);
    return listPlans({ ctx, input: { applicationId } });
  });

  app.get('/applications/:id/licenses', async (request, reply): Promise<License[]> => {
    const { ctx, applicationId } = reachable(request);
    const query = parseInput(licenseListQuerySchema, request.query);
    const page = await listLicenses({ ctx, input: { applicationId, ...query } });
    setPagingHeaders(reply, query, page);
    const now = ctx.clock.now();
    return page.rows.map((row) => toLicenseResponse(row, now));
  });

  app.post('/applications/:id/licenses', async (request, reply) => {
    const { ctx, applicationId } = reachable(request);
    const body = parseInput(generateLicensesRequestSchema, request.body);
    return answerManagementWrite(request, reply, async () => {
      const generated = await generateLicenses({ ctx, input: { applicationId, request: body } });
      return { status: 201, body: generated satisfies GeneratedLicenses };
    });
  });

  app.get('/applications/:id/licenses/export.csv', async (request, reply) => {
    const { ctx, applicationId } = reachable(request);
    const { status, planId, search } = parseInput(licenseListQuerySchema, request.query);
    const csv = await exportLicensesCsv({
      ctx,
      input: { applicationId, status, planId, search },
    });
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="licenses-${applicationId}.csv"`)
      .header('cache-control', 'no-store')
      .send(csv);
  });

  app.get('/applications/:id/licenses/:licenseId', async (request): Promise<License> => {
    const { ctx, ids } = reachableLicense(request);
    return toLicenseResponse(await getLicense({ ctx, input: ids }), ctx.clock.now());
  });

  app.post('/applications/:id/licenses/:licenseId/ban', async (request, reply) => {
    const { ids } = reachableLicense(request);
    const { reason } = parseInput(banLicenseRequestSchema, request.body);
    return answerManagementWrite(request, reply, async () => {
      const ctx = banning(request);
      const banned = await banLicense({ ctx, input: { ...ids, reason } });
      return { status: 200, body: toLicenseResponse(banned, ctx.clock.now()) satisfies License };
    });
  });

  app.post('/applications/:id/licenses/:licenseId/unban', async (request, reply) => {
    const { ids } = reachableLicense(request);
    return answerManagementWrite(request, reply, async () => {
      const ctx = banning(request);
      const unbanned = await unbanLicense({ ctx, input: ids });
      return { status: 200, body: toLicenseResponse(unbanned, ctx.clock.now()) satisfies License };
    });
  });

  app.delete('/applications/:id/licenses/:licenseId', async (request, reply) => {
    const { ctx, ids } = reachableLicense(request);
    return answerManagementWrite(request, reply, async () => {
      await deleteLicense({ ctx, input: ids });
      return { status: 200, body: { success: true, message: 'Licence key deleted successfully' } };
    });
  });
}

/** The module's routes defined once (route-definition.ts); the rest are registered above. */
export const managementLicenseRoutes: readonly RouteDefinition[] = [];
