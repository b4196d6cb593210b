import type { RouteDefinition } from '../../http/route-definition.ts';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import {
  APP_FILE_UPLOAD_MEDIA_TYPE,
  appFileParamsSchema,
  applicationParamsSchema,
  uploadAppFileQuerySchema,
  type AppFile,
  type DeletedResponse,
} from '@latchkey/contracts';
import type { AppDependencies } from '../../http/app-dependencies.ts';
import { parseInput } from '../../http/parse-input.ts';
import { AppError } from '../../lib/errors.ts';
import { deleteAppFile } from './delete-app-file.ts';
import type { FileStorage } from './file-storage.ts';
import { listAppFiles } from './list-app-files.ts';
import { uploadAppFile } from './upload-app-file.ts';

/**
 * An application's downloadable files. Registered inside the owner-guarded scope,
 * in a scope of their own: only here is an application/octet-stream body accepted, handed to
 * the upload as the stream it is (never buffered), under MAX_UPLOAD_MB instead of the JSON
 * body limit.
 */
export function registerFileRoutes(
  app: FastifyInstance,
  deps: Pick<AppDependencies, 'config' | 'applicationEvents'> & { storage: FileStorage },
): void {
  const { storage, applicationEvents } = deps;
  const maxBytes = deps.config.maxUploadBytes;

  app.get('/api/applications/:id/files', async (request): Promise<AppFile[]> => {
    const { id } = parseInput(applicationParamsSchema, request.params);
    return listAppFiles({ ctx: request.owner!, input: { applicationId: id } });
  });

  app.delete('/api/applications/:id/files/:fileId', async (request): Promise<DeletedResponse> => {
    const { id, fileId } = parseInput(appFileParamsSchema, request.params);
    await deleteAppFile({
      ctx: { ...request.owner!, storage, applicationEvents },
      input: { applicationId: id, fileId },
    });
    return { success: true, message: 'File deleted successfully' };
  });

  void app.register(async (uploads) => {
    // The parser only hands the stream on: the verb reads it piece by piece, counting bytes
    // against the limit itself (Fastify's bodyLimit applies to buffered bodies only).
    uploads.addContentTypeParser('application/octet-stream', (_request, payload, done) => {
      done(null, payload);
    });
    uploads.post('/api/applications/:id/files', async (request, reply) => {
      const { id } = parseInput(applicationParamsSchema, request.params);
      const query = parseInput(uploadAppFileQuerySchema, request.query);
      if (!(request.body instanceof Readable)) {
        throw new AppError('UNSUPPORTED_MEDIA_TYPE', APP_FILE_UPLOAD_MEDIA_TYPE);
      }
      const declared = request.headers['content-length'];
      // A refused upload closes the connection: otherwise Node would read (and discard) the
      // rest of a body we already said no to, up to a gigabyte of it.
      reply.header('connection', 'close');
      const body = request.body;
      const file = await uploadAppFile({
        ctx: { ...request.owner!, storage, applicationEvents },
        input: {
          ...query,
          applicationId: id,
          body,
          declaredBytes: declared === undefined ? null : Number(declared),
          maxBytes,
        },
      }).catch((error: unknown) => {
        // The owner closed the page or lost the network: nothing was kept (the verb deleted
        // it), nobody waits for an answer, and it is no server fault to log as one.
        if (body.destroyed && !body.readableEnded && !(error instanceof AppError)) {
          request.log.info({ applicationId: id }, 'upload aborted by the client');
          throw new AppError('BAD_REQUEST', 'The upload was interrupted');
        }
        throw error;
      });
      reply.removeHeader('connection');
      return reply.status(201).send(file satisfies AppFile);
    });
  });
}

/** The module's routes defined once (route-definition.ts); the rest are registered above. */
export const fileRoutes: readonly RouteDefinition[] = [];
