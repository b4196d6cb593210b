import { existsSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { SDK_PACKAGES_INDEX_PATH } from '@latchkey/contracts';

/**
 * Serves the client SDK packages of this server's own version at /sdk/ (the npm tarball, the
 * wheel, the NuGet package, the C++ source archive) and their index.json, until they are on
 * the public registries: the Integration page's install lines point here. The files are built
 * by `npm run build:sdks` (run by `npm start` and `npm run build`); a name carries its version
 * but a rebuild of the same version keeps the name, so browsers and proxies revalidate hourly.
 * Without a built folder, /sdk/index.json still answers, with no packages.
 */
export async function registerSdkPackages(app: FastifyInstance, directory: string): Promise<void> {
  if (!existsSync(directory)) {
    app.get(SDK_PACKAGES_INDEX_PATH, async (_request, reply) =>
      reply.header('cache-control', 'no-cache').send({ packages: [] }),
    );
    return;
  }
  await app.register(fastifyStatic, {
    root: directory,
    prefix: '/sdk/',
    decorateReply: false,
    index: false,
    // Only the files the build wrote, by exact name: no listing, no dotfiles.
    allowedPath: (pathName) => /^\/[A-Za-z0-9][A-Za-z0-9._-]*$/.test(pathName),
    setHeaders(reply, path) {
      reply.header(
        'cache-control',
        path.endsWith('index.json') ? 'no-cache' : 'public, max-age=3600, must-revalidate',
      );
      reply.header('x-content-type-options', 'nosniff');
    },
  });
}
