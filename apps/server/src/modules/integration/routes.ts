import type { RouteDefinition } from '../../http/route-definition.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  defaultSampleParamsSchema,
  sampleLanguageCatalogue,
  sampleParamsSchema,
  SAMPLE_BODY_LIMIT_BYTES,
  saveSampleRequestSchema,
  type Sample,
} from '@latchkey/contracts';
import type { AppDependencies } from '../../http/app-dependencies.ts';
import type { Config } from '../../config.ts';
import { parseInput } from '../../http/parse-input.ts';
import { registerCodeFileRoutes } from './code-file-routes.ts';
import { getSample } from './get-sample.ts';
import { resetSample, saveSample } from './save-sample.ts';
import { loadSampleTemplate } from './sample-templates.ts';

/**
 * The client samples: rendered for one of the owner's applications, saved as the
 * account's edit, reset to the default; and the bare template, placeholders unfilled, for
 * pages with no application chosen; and the code editor's documents. Registered inside the
 * owner-guarded scope.
 */
export function registerIntegrationRoutes(
  app: FastifyInstance,
  deps: Pick<AppDependencies, 'config'>,
): void {
  const { config } = deps;

  app.get('/api/samples/:language', async (request): Promise<Sample> => {
    const { language } = parseInput(defaultSampleParamsSchema, request.params);
    return {
      language,
      filename: sampleLanguageCatalogue[language].filename,
      code: await loadSampleTemplate(language),
      baseUrl: null,
      isCustomized: false,
      updatedAt: null,
    };
  });

  app.get('/api/applications/:id/samples/:language', async (request): Promise<Sample> => {
    const { id, language } = parseInput(sampleParamsSchema, request.params);
    return getSample({
      ctx: { ...request.owner!, baseUrl: publicBaseUrl(request, config) },
      input: { applicationId: id, language },
    });
  });

  app.put(
    '/api/applications/:id/samples/:language',
    { bodyLimit: SAMPLE_BODY_LIMIT_BYTES },
    async (request): Promise<Sample> => {
      const { id, language } = parseInput(sampleParamsSchema, request.params);
      const { code } = parseInput(saveSampleRequestSchema, request.body);
      return saveSample({
        ctx: { ...request.owner!, baseUrl: publicBaseUrl(request, config) },
        input: { applicationId: id, language, code },
      });
    },
  );

  app.delete('/api/applications/:id/samples/:language', async (request): Promise<Sample> => {
    const { id, language } = parseInput(sampleParamsSchema, request.params);
    await resetSample({ ctx: request.owner!, input: { applicationId: id, language } });
    return getSample({
      ctx: { ...request.owner!, baseUrl: publicBaseUrl(request, config) },
      input: { applicationId: id, language },
    });
  });

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

/** The module's routes defined once (route-definition.ts); the rest are registered above. */
export const sampleRoutes: readonly RouteDefinition[] = [];
