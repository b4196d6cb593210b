import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  defaultSampleParamsSchema,
  sampleLanguageCatalogue,
  sampleParamsSchema,
  sampleSchema,
  SAMPLE_BODY_LIMIT_BYTES,
  saveSampleRequestSchema,
  type Sample,
} from '@latchkey/contracts';
import type { AppDependencies } from '../../http/app-dependencies.ts';
import type { Config } from '../../config.ts';
import { ok } from '../../http/route-contract.ts';
import { registerRoutes, routeDefiner } from '../../http/route-definition.ts';
import { registerCodeFileRoutes } from './code-file-routes.ts';
import { getSample } from './get-sample.ts';
import { resetSample, saveSample } from './save-sample.ts';
import { loadSampleTemplate } from './sample-templates.ts';

const defineRoute = routeDefiner<Pick<AppDependencies, 'config'>>();

/**
 * The client samples: rendered for one of the owner's applications, saved as the
 * account's edit, reset to the default; and the bare template, placeholders unfilled, for
 * pages with no application chosen.
 */
export const sampleRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/samples/:language',
    permission: 'signed_in',
    caller: 'owner',
    tag: 'Samples',
    summary: 'The bare sample template of a language',
    params: defaultSampleParamsSchema,
    responses: { 200: ok(sampleSchema) },
    handle: async ({ params }): Promise<Sample> => {
      const { language } = params;
      return {
        language,
        filename: sampleLanguageCatalogue[language].filename,
        code: await loadSampleTemplate(language),
        baseUrl: null,
        isCustomized: false,
        updatedAt: null,
      };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/applications/:id/samples/:language',
    permission: 'signed_in',
    caller: 'owner',
    tag: 'Samples',
    summary: 'A sample rendered for an application (or the owner\u2019s saved edit)',
    params: sampleParamsSchema,
    responses: { 200: ok(sampleSchema) },
    handle: async ({ params, request }, { config }): Promise<Sample> => {
      const { id, language } = params;
      return getSample({
        ctx: { ...request.owner!, baseUrl: publicBaseUrl(request, config) },
        input: { applicationId: id, language },
      });
    },
  }),
  defineRoute({
    bodyLimit: SAMPLE_BODY_LIMIT_BYTES,
    method: 'PUT',
    path: '/api/applications/:id/samples/:language',
    permission: 'edit_code',
    caller: 'owner',
    tag: 'Samples',
    summary: 'Save an edited sample',
    params: sampleParamsSchema,
    body: saveSampleRequestSchema,
    responses: { 200: ok(sampleSchema) },
    handle: async ({ params, body, request }, { config }): Promise<Sample> => {
      const { id, language } = params;
      const { code } = body;
      return saveSample({
        ctx: { ...request.owner!, baseUrl: publicBaseUrl(request, config) },
        input: { applicationId: id, language, code },
      });
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/applications/:id/samples/:language',
    permission: 'edit_code',
    caller: 'owner',
    tag: 'Samples',
    summary: 'Reset a sample to the rendered default',
    params: sampleParamsSchema,
    responses: { 200: ok(sampleSchema, 'The sample as it is now: the rendered default.') },
    handle: async ({ params, request }, { config }): Promise<Sample> => {
      const { id, language } = params;
      await resetSample({ ctx: request.owner!, input: { applicationId: id, language } });
      return getSample({
        ctx: { ...request.owner!, baseUrl: publicBaseUrl(request, config) },
        input: { applicationId: id, language },
      });
    },
  }),
];

/** The samples and the code editor's documents. Registered inside the owner-guarded scope. */
export function registerIntegrationRoutes(
  app: FastifyInstance,
  deps: Pick<AppDependencies, 'config'>,
): void {
  registerRoutes(app, sampleRoutes, deps);
  registerCodeFileRoutes(app);
}

/**
 * The base URL a vendor's program should call: PUBLIC_ORIGIN (always set in production),
 * else the origin this request reached. A Host header that does not make a URL falls back
 * to the loopback address, never into the rendered code as raw text.
 */
export function publicBaseUrl(request: FastifyRequest, config: Config): string {
  if (config.publicOrigin) return config.publicOrigin;
  try {
    const origin = new URL(`${request.protocol}://${request.host}`).origin;
    if (origin !== 'null') return origin;
  } catch {
    // fall through
  }
  return `http://localhost:${config.port}`;
}
