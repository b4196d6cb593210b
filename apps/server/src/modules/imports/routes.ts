import type { RouteDefinition } from '../../http/route-definition.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  applicationParamsSchema,
  createImportQuerySchema,
  IMPORT_UPLOAD_MEDIA_TYPE,
  importLimits,
  importParamsSchema,
  startImportRequestSchema,
  type ImportProgress,
} from '@latchkey/contracts';
import type { Config } from '../../config.ts';
import { parseInput } from '../../http/parse-input.ts';
import { AppError } from '../../lib/errors.ts';
import { getImport } from './get-import.ts';
import type { ImportContext } from './import-context.ts';
import { previewImport } from './preview-import.ts';
import { startImport } from './start-import.ts';

/** Runs still writing, so closing the server waits for them instead of cutting a batch. */
export interface RunningImports {
  keep(run: Promise<void>): void;
  settled(): Promise<void>;
}

export function createRunningImports(): RunningImports {
  const running = new Set<Promise<void>>();
  return {
    keep(run) {
      running.add(run);
      void run.finally(() => running.delete(run));
    },
    async settled() {
      await Promise.allSettled([...running]);
    },
  };
}

/**
 * The export file arrives as raw bytes (JSON, CSV or text alike), buffered whole under its own
 * limit: the reader needs all of it, and the JSON body limit is far smaller. Only the scope
 * this is called on accepts application/octet-stream.
 */
export function acceptExportFiles(scope: FastifyInstance): void {
  scope.addContentTypeParser(
    'application/octet-stream',
    { parseAs: 'buffer', bodyLimit: importLimits.maxFileBytes },
    (_request, body, done) => done(null, body),
  );
}

export function exportFileOf(request: FastifyRequest): Uint8Array {
  if (!(request.body instanceof Uint8Array)) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', IMPORT_UPLOAD_MEDIA_TYPE);
  }
  return request.body;
}

/** Importing users and keys from KeyAuth. Registered inside the owner-guarded scope. */
export function registerImportRoutes(
  app: FastifyInstance,
  deps: { config: Pick<Config, 'serverSecret'>; runningImports: RunningImports },
): void {
  const importCtx = (request: FastifyRequest): ImportContext => ({
    ...request.owner!,
    serverSecret: deps.config.serverSecret,
  });

  app.get('/api/applications/:id/imports/:importId', async (request): Promise<ImportProgress> => {
    const { id, importId } = parseInput(importParamsSchema, request.params);
    return getImport({ ctx: request.owner!, input: { applicationId: id, importId } });
  });

  app.post('/api/applications/:id/imports/:importId/start', async (request, reply) => {
    const { id, importId } = parseInput(importParamsSchema, request.params);
    const body = parseInput(startImportRequestSchema, request.body ?? {});
    const { progress, run } = await startImport({
      ctx: importCtx(request),
      input: { applicationId: id, importId, request: body },
    });
    if (run) deps.runningImports.keep(run);
    return reply.status(202).send(progress satisfies ImportProgress);
  });

  void app.register(async (uploads) => {
    acceptExportFiles(uploads);
    uploads.post('/api/applications/:id/imports', async (request, reply) => {
      const { id } = parseInput(applicationParamsSchema, request.params);
      const { kind } = parseInput(createImportQuerySchema, request.query);
      const progress = await previewImport({
        ctx: importCtx(request),
        input: { applicationId: id, kind, bytes: exportFileOf(request) },
      });
      return reply.status(201).send(progress satisfies ImportProgress);
    });
  });
}

/** The module's routes defined once (route-definition.ts); the rest are registered above. */
export const importRoutes: readonly RouteDefinition[] = [];
