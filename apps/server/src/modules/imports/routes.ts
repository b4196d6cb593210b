import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  applicationParamsSchema,
  createOwnerImportQuerySchema,
  IMPORT_UPLOAD_MEDIA_TYPE,
  importLimits,
  importParamsSchema,
  importProgressSchema,
  startImportRequestSchema,
  type ImportProgress,
} from '@latchkey/contracts';
import type { Config } from '../../config.ts';
import { ok } from '../../http/route-contract.ts';
import { registerRoutes, routeDefiner } from '../../http/route-definition.ts';
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

interface ImportServices {
  config: Pick<Config, 'serverSecret'>;
  runningImports: RunningImports;
}

const defineRoute = routeDefiner<ImportServices>();

const importCtx = (request: FastifyRequest, { config }: ImportServices): ImportContext => ({
  ...request.owner!,
  serverSecret: config.serverSecret,
});

const getRoute = defineRoute({
  method: 'GET',
  path: '/api/applications/:id/imports/:importId',
  permission: 'signed_in',
  caller: 'owner',
  tag: 'Applications',
  summary: 'The preview or progress of a KeyAuth import',
  description:
    '`doneRows` of `readableRows` is the progress. `keyauthSettings` says what became of the application\u2019s KeyAuth owner id, name and secret the file held; `filesToUpload` lists a files import\u2019s files, whose bytes must be uploaded again.',
  params: importParamsSchema,
  responses: { 200: ok(importProgressSchema) },
  handle: ({ params, request }): Promise<ImportProgress> =>
    getImport({
      ctx: request.owner!,
      input: { applicationId: params.id, importId: params.importId },
    }),
});

const startRoute = defineRoute({
  method: 'POST',
  path: '/api/applications/:id/imports/:importId/start',
  permission: 'manage_applications',
  caller: 'owner',
  tag: 'Applications',
  summary: 'Start (or resume) a previewed KeyAuth import',
  description:
    '`levelPlans` maps KeyAuth levels to plans of the application: every level of a keys import must be mapped; a mapped level of a users import grants that plan until the KeyAuth expiry; a subscriptions import makes a plan for each level not mapped (unless an earlier import mapped it, or a plan has its name). The preview suggests the plans earlier imports gave the levels. The application\u2019s KeyAuth owner id, name and secret the file holds are written first, while KeyAuth compatibility is off (it is never turned on by an import). Answers 202 with the progress at once; the rows are written in batches of 1000, each in one transaction. A failed import, or one whose server stopped, continues with the rows not yet done; a done import is answered as it is and imports nothing twice; one still running is a 409.',
  params: importParamsSchema,
  body: startImportRequestSchema,
  responses: { 202: ok(importProgressSchema, 'Started.') },
  errors: [409],
  handle: async ({ params, body, request, reply }, services) => {
    const { progress, run } = await startImport({
      ctx: importCtx(request, services),
      input: { applicationId: params.id, importId: params.importId, request: body },
    });
    if (run) services.runningImports.keep(run);
    return reply.status(202).send(progress satisfies ImportProgress);
  },
});

/** The upload: registered in the scope where the export's raw bytes are accepted as its body. */
const uploadRoute = defineRoute({
  method: 'POST',
  path: '/api/applications/:id/imports',
  permission: 'manage_applications',
  caller: 'owner',
  tag: 'Applications',
  summary: 'Upload a KeyAuth export and preview its import',
  description:
    'The body is the export file\u2019s bytes (`Content-Type: application/octet-stream`); `source=keyauth` and `kind` are query parameters. `users`, `keys`: KeyAuth\u2019s users or keys JSON, a CSV of its table, or a text file of keys. `subscriptions`, `variables`, `user-variables`, `blacklist`, `files`: the seller API\u2019s answer (fetchallsubs, fetchallvars, fetchalluservars, fetchallblacks, fetchallfiles) saved as a file, or a CSV of the table. `application`: a CSV of KeyAuth\u2019s apps table holding the application\u2019s row, for its owner id, name and secret. Nothing is imported yet: the answer counts the rows, the conflicts (rows skipped when run, with why) and the unreadable rows, with their row numbers (the first 100 of each), lists the KeyAuth levels to map to plans, and the application\u2019s KeyAuth settings the file holds (never the secret). A file that cannot be read at all is a 400; larger than 64 MiB is a 413.',
  params: applicationParamsSchema,
  query: createOwnerImportQuerySchema,
  body: z.string().meta({ format: 'binary' }),
  bodyMediaType: 'application/octet-stream',
  responses: { 201: ok(importProgressSchema, 'Previewed.') },
  errors: [413],
  handle: async ({ params, query, request, reply }, services) => {
    const progress = await previewImport({
      ctx: importCtx(request, services),
      input: { applicationId: params.id, kind: query.kind, bytes: exportFileOf(request) },
    });
    return reply.status(201).send(progress satisfies ImportProgress);
  },
});

/** Importing an application from KeyAuth, for the application's owner. */
export const importRoutes = [uploadRoute, startRoute, getRoute];

/** Importing an application from KeyAuth. Registered inside the owner-guarded scope. */
export function registerImportRoutes(app: FastifyInstance, services: ImportServices): void {
  registerRoutes(app, [getRoute, startRoute], services);
  void app.register(async (uploads) => {
    acceptExportFiles(uploads);
    registerRoutes(uploads, [uploadRoute], services);
  });
}
