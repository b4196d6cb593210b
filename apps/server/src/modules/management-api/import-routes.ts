import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  applicationParamsSchema,
  createImportQuerySchema,
  importParamsSchema,
  importProgressSchema,
  startImportRequestSchema,
  type ImportProgress,
} from '@latchkey/contracts';
import type { Config } from '../../config.ts';
import { ok } from '../../http/route-contract.ts';
import { routeDefiner } from '../../http/route-definition.ts';
import {
  getImport,
  acceptExportFiles,
  exportFileOf,
  type RunningImports,
  previewImport,
  startImport,
} from '../imports/index.ts';
import { idempotent } from './management-descriptions.ts';
import { assertTokenScope } from './management-guard.ts';
import { applicationIdsOf, registerApplicationRoutes } from './management-route-scopes.ts';
import { answerManagementWrite } from './management-write.ts';

/** A keys import mints licence keys: beside the routes' users:write, it needs this. */
const KEYS_IMPORT_SCOPE = 'licenses:write';

type ImportServices = { config: Pick<Config, 'serverSecret'>; runningImports: RunningImports };

const defineRoute = routeDefiner<ImportServices>();

/** The upload: registered where the export's raw bytes are accepted as its body. */
const uploadRoute = defineRoute({
  method: 'POST',
  path: '/api/manage/v1/applications/:id/imports',
  caller: 'manage',
  tag: 'Management API',
  summary: 'Upload a KeyAuth export and preview its import',
  description: `As the console\u2019s upload: the file\u2019s bytes as an application/octet-stream body, \`source=keyauth\` and \`kind=users|keys\` in the query. Needs users:write; \`kind=keys\` mints licence keys, so it needs licenses:write too (403 \`SCOPE_MISSING\` naming it), and so does starting a keys import.${idempotent}`,
  params: applicationParamsSchema,
  query: createImportQuerySchema,
  body: z.string().meta({ format: 'binary' }),
  bodyMediaType: 'application/octet-stream',
  responses: { 201: ok(importProgressSchema, 'Previewed.') },
  errors: [413],
  management: { scope: 'users:write', sameAs: 'POST /api/applications/:id/imports' },
  handle: ({ params: { id }, query: { kind }, request, reply }) => {
    const ctx = request.management!;
    if (kind === 'keys') assertTokenScope(ctx, KEYS_IMPORT_SCOPE);
    const bytes = exportFileOf(request);
    return answerManagementWrite(request, reply, async () => {
      const progress = await previewImport({
        ctx,
        input: { applicationId: id, kind, bytes },
      });
      return { status: 201, body: progress satisfies ImportProgress };
    });
  },
});

const importRoutes = [
  defineRoute({
    method: 'POST',
    path: '/api/manage/v1/applications/:id/imports/:importId/start',
    caller: 'manage',
    tag: 'Management API',
    summary: 'Start (or resume) a previewed KeyAuth import',
    description: `\`levelPlans\` maps KeyAuth levels to plan ids; answers 202 with the progress, the rows follow in batches.${idempotent}`,
    params: importParamsSchema,
    body: startImportRequestSchema,
    responses: { 202: ok(importProgressSchema, 'Started.') },
    errors: [409],
    management: {
      scope: 'users:write',
      sameAs: 'POST /api/applications/:id/imports/:importId/start',
    },
    handle: async ({ params, body, request, reply }, { runningImports }) => {
      const ctx = request.management!;
      const ids = applicationIdsOf(params);
      if ((await getImport({ ctx, input: ids })).kind === 'keys') {
        assertTokenScope(ctx, KEYS_IMPORT_SCOPE);
      }
      return answerManagementWrite(request, reply, async () => {
        const { progress, run } = await startImport({ ctx, input: { ...ids, request: body } });
        if (run) runningImports.keep(run);
        return { status: 202, body: progress satisfies ImportProgress };
      });
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/manage/v1/applications/:id/imports/:importId',
    caller: 'manage',
    tag: 'Management API',
    summary: 'The preview or progress of a KeyAuth import',
    params: importParamsSchema,
    responses: { 200: ok(importProgressSchema) },
    management: { scope: 'users:read', sameAs: 'GET /api/applications/:id/imports/:importId' },
    handle: ({ params, request }): Promise<ImportProgress> =>
      getImport({ ctx: request.management!, input: applicationIdsOf(params) }),
  }),
];

/**
 * Importing from KeyAuth through the management API, with the console's verbs: a
 * migration script uploads the export, reads the preview, starts it and polls its progress.
 */
export const managementImportRoutes = [uploadRoute, ...importRoutes];

export function registerManagementImportRoutes(app: FastifyInstance, deps: ImportServices): void {
  registerApplicationRoutes(app, importRoutes, deps);
  registerApplicationRoutes(app, [uploadRoute], deps, acceptExportFiles);
}
