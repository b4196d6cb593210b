import type { RouteDefinition } from '../../http/route-definition.ts';
import type { FastifyInstance } from 'fastify';
import {
  CODE_FILE_BODY_LIMIT_BYTES,
  codeFileParamsSchema,
  codeFileVersionParamsSchema,
  saveCodeFileRequestSchema,
  type CodeFile,
  type CodeFileSummary,
  type CodeFileVersionList,
} from '@latchkey/contracts';
import { parseInput } from '../../http/parse-input.ts';
import { getCodeFile } from './get-code-file.ts';
import { listCodeFileVersions } from './list-code-file-versions.ts';
import { listCodeFiles } from './list-code-files.ts';
import { restoreCodeFileVersion } from './restore-code-file-version.ts';
import { saveCodeFile } from './save-code-file.ts';

/**
 * The /code-editor's reference documents: the account's own, in the database,
 * with a version history. Registered inside the owner-guarded scope; writes need edit_code.
 */
export function registerCodeFileRoutes(app: FastifyInstance): void {
  app.get('/api/code-files', async (request): Promise<CodeFileSummary[]> =>
    listCodeFiles({ ctx: request.owner! }),
  );

  app.get('/api/code-files/:name', async (request): Promise<CodeFile> => {
    const { name } = parseInput(codeFileParamsSchema, request.params);
    return getCodeFile({ ctx: request.owner!, input: { name } });
  });

  // A document may be larger than the server-wide body limit: this route's own limit fits
  // any valid one, so an over-long text gets the schema's clear 400 rather than a bare 413.
  app.put(
    '/api/code-files/:name',
    { bodyLimit: CODE_FILE_BODY_LIMIT_BYTES },
    async (request): Promise<CodeFile> => {
      const { name } = parseInput(codeFileParamsSchema, request.params);
      const { content, baseVersion } = parseInput(saveCodeFileRequestSchema, request.body);
      return saveCodeFile({ ctx: request.owner!, input: { name, content, baseVersion } });
    },
  );

  app.get('/api/code-files/:name/versions', async (request): Promise<CodeFileVersionList> => {
    const { name } = parseInput(codeFileParamsSchema, request.params);
    return listCodeFileVersions({ ctx: request.owner!, input: { name } });
  });

  app.post(
    '/api/code-files/:name/versions/:versionId/restore',
    async (request): Promise<CodeFile> => {
      const { name, versionId } = parseInput(codeFileVersionParamsSchema, request.params);
      return restoreCodeFileVersion({ ctx: request.owner!, input: { name, versionId } });
    },
  );
}

/** The module's routes defined once (route-definition.ts); the rest are registered above. */
export const codeFileRoutes: readonly RouteDefinition[] = [];
