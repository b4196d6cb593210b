import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  APP_FILE_UPLOAD_MEDIA_TYPE,
  appFileListSchema,
  appFileParamsSchema,
  appFileSchema,
  applicationParamsSchema,
  deletedResponseSchema,
  uploadAppFileQuerySchema,
  type AppFile,
  type DeletedResponse,
} from '@latchkey/contracts';
import type { AppDependencies } from '../../http/app-dependencies.ts';
import { ok } from '../../http/route-contract.ts';
import { registerRoutes, routeDefiner } from '../../http/route-definition.ts';
import { AppError } from '../../lib/errors.ts';
import { deleteAppFile } from './delete-app-file.ts';
import type { FileStorage } from './file-storage.ts';
import { listAppFiles } from './list-app-files.ts';
import { uploadAppFile } from './upload-app-file.ts';

type FileServices = Pick<AppDependencies, 'config' | 'applicationEvents'> & {
  storage: FileStorage;
};

const defineRoute = routeDefiner<FileServices>();

const listAndDeleteRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/applications/:id/files',
    permission: 'signed_in',
    caller: 'owner',
    tag: 'Files',
    summary: 'List an application’s files',
    description: 'Complete uploads only, newest first.',
    params: applicationParamsSchema,
    responses: { 200: ok(appFileListSchema) },
    handle: ({ params, request }): Promise<AppFile[]> =>
      listAppFiles({ ctx: request.owner!, input: { applicationId: params.id } }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/applications/:id/files/:fileId',
    permission: 'manage_applications',
    caller: 'owner',
    tag: 'Files',
    summary: 'Delete a file',
    description: 'A file that was the current release stops being offered as the update.',
    params: appFileParamsSchema,
    responses: { 200: ok(deletedResponseSchema) },
    handle: async (
      { params, request },
      { storage, applicationEvents },
    ): Promise<DeletedResponse> => {
      await deleteAppFile({
        ctx: { ...request.owner!, storage, applicationEvents },
        input: { applicationId: params.id, fileId: params.fileId },
      });
      return { success: true, message: 'File deleted successfully' };
    },
  }),
];

/** The upload: registered in the scope where the file's raw bytes are accepted as its body. */
const uploadRoute = defineRoute({
  method: 'POST',
  path: '/api/applications/:id/files',
  permission: 'manage_applications',
  caller: 'owner',
  tag: 'Files',
  summary: 'Upload a file',
  description:
    'The body is the file’s bytes (`Content-Type: application/octet-stream`), streamed to storage; `name`, `version`, optional `platform` and `requiresSession` (default true) are query parameters. Larger than MAX_UPLOAD_MB (default 512) is a 413, and nothing is kept; neither is anything of an upload that fails or is aborted.',
  params: applicationParamsSchema,
  query: uploadAppFileQuerySchema,
  body: z.string().meta({ format: 'binary' }),
  bodyMediaType: 'application/octet-stream',
  responses: { 201: ok(appFileSchema, 'Stored.') },
  handle: async ({ params: { id }, query, request, reply }, services) => {
    const { storage, applicationEvents } = services;
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
        maxBytes: services.config.maxUploadBytes,
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
  },
});

/** An application's downloadable files, for its owner. */
export const fileRoutes = [...listAndDeleteRoutes, uploadRoute];

/**
 * An application's downloadable files. Registered inside the owner-guarded scope,
 * the upload in a scope of its own: only there is an application/octet-stream body accepted,
 * handed to the upload as the stream it is (never buffered), under MAX_UPLOAD_MB instead of
 * the JSON body limit.
 */
export function registerFileRoutes(app: FastifyInstance, services: FileServices): void {
  registerRoutes(app, listAndDeleteRoutes, services);
  void app.register(async (uploads) => {
    // The parser only hands the stream on: the verb reads it piece by piece, counting bytes
    // against the limit itself (Fastify's bodyLimit applies to buffered bodies only).
    uploads.addContentTypeParser('application/octet-stream', (_request, payload, done) => {
      done(null, payload);
    });
    registerRoutes(uploads, [uploadRoute], services);
  });
}
