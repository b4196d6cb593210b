import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { isConsolePagePath } from '@latchkey/contracts';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves the built console. Vite fingerprints everything under /assets/, so those files are
 * cached for a year; index.html is revalidated on every load so a deploy shows at once.
 * The build writes brotli and gzip copies beside each file (apps/console/build-tools), sent
 * as they are to browsers that accept them: no compression work per request.
 * Other non-API paths fall through to index.html, whose router shows the page or the 404 page;
 * a path that is none of the console's pages is answered with the status 404 as well, so a
 * crawler or a link checker does not index the 404 page as a page.
 */
export async function registerConsoleAssets(
  app: FastifyInstance,
  distDir: string | null,
): Promise<void> {
  const indexPath = distDir ? join(distDir, 'index.html') : null;
  if (distDir && existsSync(distDir)) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: true,
      index: 'index.html',
      preCompressed: true,
      setHeaders(reply, path) {
        reply.header('cache-control', path.includes('/assets/') ? IMMUTABLE : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (path === '/api' || path.startsWith('/api/')) {
      return reply
        .status(404)
        .send({ message: `Route ${request.method} ${path} not found`, code: 'NOT_FOUND' });
    }
    const acceptsHtml = request.method === 'GET' || request.method === 'HEAD';
    if (!acceptsHtml || !indexPath || !existsSync(indexPath)) {
      return reply
        .status(404)
        .type('text/plain')
        .send(indexPath ? 'Not found. (Console not built: run `npm run build`.)' : 'Not found');
    }
    return reply
      .status(isConsolePagePath(path) ? 200 : 404)
      .header('cache-control', 'no-cache')
      .sendFile('index.html', distDir!);
  });
}
