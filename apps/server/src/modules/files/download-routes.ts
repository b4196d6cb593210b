import type { FastifyInstance } from 'fastify';
import { downloadParamsSchema, errorBodySchema } from '@latchkey/contracts';
import type { Clock } from '../../lib/clock.ts';
import type { Config } from '../../config.ts';
import type { AppDependencies } from '../../http/app-dependencies.ts';
import { parseInput } from '../../http/parse-input.ts';
import { ok } from '../../http/route-contract.ts';
import { routeDefiner, type RouteDefinition } from '../../http/route-definition.ts';
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
export const DOWNLOAD_UPDATES_EXPIRED =
  'This file was published after the updates period of the account the link was issued to';

/** `attachment` with the file's name, ASCII for old clients and UTF-8 (RFC 6266) for the rest. */
function contentDispositionOf(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

interface DownloadServices {
  config: Pick<Config, 'serverSecret'>;
  clock: Clock;
  db: AppDependencies['database']['db'];
  storage: FileStorage;
  throttles: ReturnType<typeof createDownloadThrottles>;
}

const defineRoute = routeDefiner<DownloadServices>();

/**
 * GET /api/v1/downloads/:token: the bytes of the file a download token names, to
 * anyone holding the URL until it expires, as often as asked (download managers resume with
 * Range), and while the end user it was issued to (a file that needs a session) is still in
 * good standing. Outside the client API's scope on purpose: no API key, and its answers are
 * bytes, not signed JSON (the size and SHA-256 were in POST /api/v1/file's signed answer). A
 * tampered or expired token is a 403 before any lookup. Streamed a few pieces at a time from
 * storage.
 */
const downloadRoute = defineRoute({
  method: 'GET',
  path: `${DOWNLOAD_PATH_PREFIX}:token`,
  caller: 'public',
  tag: 'Client API',
  summary: 'Download a file through the URL POST /api/v1/file answered',
  description:
    'No API key: the token in the path proves the grant (one file, until it expires). `Range` with one range (`bytes=a-b`, `bytes=a-`, `bytes=-n`) answers 206 with `Content-Range`; past the end is 416. `ETag` is the SHA-256. A tampered or expired token is a 403 with no bytes; refused tokens are throttled per address and per file (429 with Retry-After).',
  params: downloadParamsSchema,
  responses: {
    200: { description: 'The whole file.', mediaType: 'application/octet-stream' },
    206: { description: 'The range asked for.', mediaType: 'application/octet-stream' },
    416: ok(errorBodySchema, 'The range starts past the end of the file.'),
  },
  errors: [403, 404, 429],
  handle: async ({ params: { token }, request, reply }, services) => {
    const { config, clock, db, storage, throttles } = services;
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
    if (found.kind === 'updates-expired') {
      throw new AppError('FORBIDDEN', DOWNLOAD_UPDATES_EXPIRED);
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

/** The public download route, defined once. */
export const downloadRoutes = [downloadRoute];

/** Registers the download route, with the throttles its refusals count against. */
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
  const services: DownloadServices = { config, clock, db, storage, throttles };

  // Registered by hand, not with registerRoutes: HEAD is declared with GET, not Fastify's
  // automatic one (that would read the whole file from storage only to discard it, and answer
  // a content-length of 0), and Retry-After needs a route-level onError hook. The params are
  // parsed as registerRoutes would, before the handler.
  app.route({
    method: ['GET', 'HEAD'],
    url: downloadRoute.path,
    config: { definition: downloadRoute as RouteDefinition },
    // Retry-After on a throttled answer; the one error handler shapes the body.
    onError: (_request, reply, error, done) => {
      if (error instanceof DownloadThrottled) {
        reply.header('retry-after', String(error.retryAfterSeconds));
      }
      done();
    },
    handler: async (request, reply) =>
      downloadRoute.handle(
        {
          params: parseInput(downloadParamsSchema, request.params),
          query: undefined,
          body: undefined,
          request,
          reply,
        },
        services,
      ),
  });
}
