import type { FastifyInstance } from 'fastify';
import {
  CODE_FILE_BODY_LIMIT_BYTES,
  codeFileListSchema,
  codeFileParamsSchema,
  codeFileSchema,
  codeFileVersionListSchema,
  codeFileVersionParamsSchema,
  saveCodeFileRequestSchema,
  type CodeFile,
  type CodeFileSummary,
  type CodeFileVersionList,
} from '@latchkey/contracts';
import { ok } from '../../http/route-contract.ts';
import { registerRoutes, routeDefiner } from '../../http/route-definition.ts';
import { getCodeFile } from './get-code-file.ts';
import { listCodeFileVersions } from './list-code-file-versions.ts';
import { listCodeFiles } from './list-code-files.ts';
import { restoreCodeFileVersion } from './restore-code-file-version.ts';
import { saveCodeFile } from './save-code-file.ts';

const defineRoute = routeDefiner<void>();

/**
 * The /code-editor's reference documents: the account's own, in the database, with a version
 * history. Writes need edit_code.
 */
export const codeFileRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/code-files',
    permission: 'signed_in',
    caller: 'owner',
    tag: 'Code editor',
    summary: 'The account\u2019s reference documents, without their text',
    responses: { 200: ok(codeFileListSchema) },
    handle: async ({ request }): Promise<CodeFileSummary[]> =>
      listCodeFiles({ ctx: request.owner! }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/code-files/:name',
    permission: 'signed_in',
    caller: 'owner',
    tag: 'Code editor',
    summary: 'One reference document',
    params: codeFileParamsSchema,
    responses: { 200: ok(codeFileSchema) },
    handle: async ({ params, request }): Promise<CodeFile> =>
      getCodeFile({ ctx: request.owner!, input: { name: params.name } }),
  }),
  // A document may be larger than the server-wide body limit: this route's own limit fits
  // any valid one, so an over-long text gets the schema's clear 400 rather than a bare 413.
  defineRoute({
    bodyLimit: CODE_FILE_BODY_LIMIT_BYTES,
    method: 'PUT',
    path: '/api/code-files/:name',
    permission: 'edit_code',
    caller: 'owner',
    tag: 'Code editor',
    summary: 'Save a reference document as its next version',
    params: codeFileParamsSchema,
    body: saveCodeFileRequestSchema,
    responses: { 200: ok(codeFileSchema) },
    errors: [409],
    handle: async ({ params, body, request }): Promise<CodeFile> => {
      const { content, baseVersion } = body;
      return saveCodeFile({
        ctx: request.owner!,
        input: { name: params.name, content, baseVersion },
      });
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/code-files/:name/versions',
    permission: 'signed_in',
    caller: 'owner',
    tag: 'Code editor',
    summary: 'A reference document\u2019s kept versions, newest first',
    params: codeFileParamsSchema,
    responses: { 200: ok(codeFileVersionListSchema) },
    handle: async ({ params, request }): Promise<CodeFileVersionList> =>
      listCodeFileVersions({ ctx: request.owner!, input: { name: params.name } }),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/code-files/:name/versions/:versionId/restore',
    permission: 'edit_code',
    caller: 'owner',
    tag: 'Code editor',
    summary: 'Make a kept version the document\u2019s next version',
    params: codeFileVersionParamsSchema,
    responses: { 200: ok(codeFileSchema) },
    handle: async ({ params, request }): Promise<CodeFile> => {
      const { name, versionId } = params;
      return restoreCodeFileVersion({ ctx: request.owner!, input: { name, versionId } });
    },
  }),
];

/** Registers the code editor's documents in `scope`, inside the owner-guarded scope. */
export function registerCodeFileRoutes(scope: FastifyInstance): void {
  registerRoutes(scope, codeFileRoutes, undefined);
}
