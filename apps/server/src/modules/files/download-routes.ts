import type { RouteDefinition } from '../../http/route-definition.ts';
import type { FastifyInstance } from 'fastify';
import { downloadParamsSchema } from '@latchkey/contracts';
import type { AppDependencies } from '../../http/app-dependencies.ts';
import { parseInput } from '../../http/parse-input.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { clientIpOf } from '../../lib/client-ip.ts';
import { createThrottleStore } from '../../lib/failure-throttle.ts';
import { createOccasionalWarning } from '../../lib/occasional-warning.ts';
import { createDownloadThrottles, DownloadThrottled } from './download-throttles.ts';
import { readDownloadToken } from './download-token.ts';
import type { FileStorage } from './file-storage.ts';
import { findDownloadableFile } from './find-downloadable-file.ts';
import { parseByteRange } from './parse-byte-range.ts';

export const DOWNLOAD_PATH_PREFIX = '/api/v1/downloads/';
export const DOWNLOAD_LINK_REFUSED = 'This download link is not valid or has expired';
export const DOWNLOAD_HOLDER_REFUSED =
  'This download link was issued to an account that can no longer download';

/** `attachment` with the file's name, ASCII for old clients and UTF-8 (RFC 6266) for the rest. */
function contentDispositionOf(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * GET /api/v1/downloads/:token: the bytes of the file a download token names, to
 * anyone holding the URL until it expires, as often as asked (download managers resume with
 * Range), and while the end user it was issued to (a file that needs a session) is still in
 * good standing. Outside the client API's scope on purpose: no API key, and its answers are
 * bytes, not signed JSON (the size and SHA-256 were in POST /api/v1/file's signed answer). A
 * tampered or expired token is a 403 before any lookup. Streamed a few pieces at a time from
 * storage.
 */
export function registerDownloadRoutes(
  app: FastifyInstance,
  deps: Pick<AppDependencies, 'config' | 'clock' | 'database'> & { storage: FileStorage },
): void {
  const { config, clock, storage } = deps;
  const { db } = deps.database;
  const throttleStore = createThrottleStore({
    redisUrl: config.redisUrl,
    database: deps.database,
    onRedisError: createOccasionalWarning({
      intervalMs: 60_000,
      clock,
      write: (error, suppressed) =>
        app.log.warn({ err: error, suppressed }, 'download throttle store (Redis) unavailable'),
    }),
  });
  app.addHook('onClose', () => throttleStore.close());
  const throttles = createDownloadThrottles({
    store: throttleStore,
    limits: config.clientApi,
    serverSecret: config.serverSecret,
  });

  // HEAD declared with GET, not Fastify's automatic one: that would read the whole file from
  // storage only to discard it.
  app.route({
    method: ['GET', 'HEAD'],
    // Retry-After on a throttled answer; the one error handler shapes the body.
    onError: (_request, reply, error, done) => {
      if (error instanceof DownloadThrottled) {
        reply.header('retry-after', String(error.retryAfterSeconds));
      }
      done();
    },
    url: `${DOWNLOAD_PATH_PREFIX}:token`,
    handler: async (request, reply) => {
      const { token } = parseInput(downloadParamsSchema, request.params);
      const attempt = {
        ipAddress: clientIpOf(request),
        token,
        fileId: token.split('.')[0] ?? '',
      };
      await throttles.admit(attempt);
      const granted = readDownloadToken({
        token,
        now: clock.now(),
        serverSecret: config.serverSecret,
      });
      if (!granted) {
        await throttles.recordFailure(attempt);
        throw new AppError('FORBIDDEN', DOWNLOAD_LINK_REFUSED);
      }
      const found = await findDownloadableFile({
        ctx: { db, log: request.log, clock },
        input: granted,
      });
      if (found.kind === 'missing') throw notFound('File not found');
      if (found.kind === 'needs-holder') throw new AppError('FORBIDDEN', DOWNLOAD_LINK_REFUSED);
      if (found.kind === 'holder-refused') {
        throw new AppError('FORBIDDEN', DOWNLOAD_HOLDER_REFUSED);
      }
      const { file } = found;

      const range = parseByteRange(request.headers.range, file.sizeBytes);
      reply
        .header('accept-ranges', 'bytes')
        .header('etag', `"${file.sha256}"`)
        .header('cache-control', 'private, no-cache')
        .header('content-disposition', contentDispositionOf(file.name));
      if (range.kind === 'unsatisfiable') {
        reply.header('content-range', `bytes */${file.sizeBytes}`);
        throw new AppError(
          'RANGE_NOT_SATISFIABLE',
          'The requested range is past the end of the file',
        );
      }
      const start = range.kind === 'range' ? range.start : 0;
      const end = range.kind === 'range' ? range.end : file.sizeBytes - 1;
      if (range.kind === 'range') {
        reply.status(206).header('content-range', `bytes ${start}-${end}/${file.sizeBytes}`);
      }
      reply
        .header('content-type', 'application/octet-stream')
        .header('content-length', String(end - start + 1));
      if (request.method === 'HEAD' || end < start) return reply.send();
      return reply.send(
        storage.readRange({ fileId: file.id, chunkSizeBytes: file.chunkSizeBytes, start, end }),
      );
    },
  });
}

/** The module's routes defined once (route-definition.ts); the rest are registered above. */
export const downloadRoutes: readonly RouteDefinition[] = [];
