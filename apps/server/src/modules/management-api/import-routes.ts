import type { RouteDefinition } from '../../http/route-definition.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  applicationParamsSchema,
  createImportQuerySchema,
  importParamsSchema,
  startImportRequestSchema,
  type ImportProgress,
} from '@latchkey/contracts';
import type { Config } from '../../config.ts';
import { parseInput } from '../../http/parse-input.ts';
import {
  getImport,
  acceptExportFiles,
  exportFileOf,
  type RunningImports,
  previewImport,
  startImport,
} from '../imports/index.ts';
import { assertTokenScope } from './management-guard.ts';
import { answerManagementWrite } from './management-write.ts';
import { reachableParams } from './reachable-applications.ts';

/** A keys import mints licence keys: beside the routes' users:write, it needs this. */
const KEYS_IMPORT_SCOPE = 'licenses:write';

/**
 * Importing from KeyAuth through the management API, with the console's verbs: a
 * migration script uploads the export, reads the preview, starts it and polls its progress.
 */
export function registerManagementImportRoutes(
  app: FastifyInstance,
  deps: { config: Pick<Config, 'serverSecret'>; runningImports: RunningImports },
): void {
  const reachableImport = (request: FastifyRequest) => reachableParams(request, importParamsSchema);

  app.get('/applications/:id/imports/:importId', async (request): Promise<ImportProgress> => {
    const { ctx, ids } = reachableImport(request);
    return getImport({ ctx, input: ids });
  });

  app.post('/applications/:id/imports/:importId/start', async (request, reply) => {
    const { ctx, ids } = reachableImport(request);
    const body = parseInput(startImportRequestSchema, request.body ?? {});
    if ((await getImport({ ctx, input: ids })).kind === 'keys') {
      assertTokenScope(ctx, KEYS_IMPORT_SCOPE);
    }
    return answerManagementWrite(request, reply, async () => {
      const { progress, run } = await startImport({ ctx, input: { ...ids, request: body } });
      if (run) deps.runningImports.keep(run);
      return { status: 202, body: progress satisfies ImportProgress };
    });
  });

  void app.register(async (uploads) => {
    acceptExportFiles(uploads);
    uploads.post('/applications/:id/imports', async (request, reply) => {
      const {
        ctx,
        ids: { applicationId: id },
      } = reachableParams(request, applicationParamsSchema);
      const { kind } = parseInput(createImportQuerySchema, request.query);
      if (kind === 'keys') assertTokenScope(ctx, KEYS_IMPORT_SCOPE);
      const bytes = exportFileOf(request);
      return answerManagementWrite(request, reply, async () => {
        const progress = await previewImport({
          ctx,
          input: { applicationId: id, kind, bytes },
        });
        return { status: 201, body: progress satisfies ImportProgress };
      });
    });
  });
}

/** The module's routes defined once (route-definition.ts); the rest are registered above. */
export const managementImportRoutes: readonly RouteDefinition[] = [];
