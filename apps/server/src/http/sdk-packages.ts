import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import {
  SDK_PACKAGES_INDEX_PATH,
  sdkPackageFileParamsSchema,
  sdkPackagesIndexSchema,
  type SdkPackagesIndex,
} from '@latchkey/contracts';

/** What each package's file is, by its ending: archives all, so a browser downloads them. */
const MEDIA_TYPES: [ending: string, mediaType: string][] = [
  ['.tgz', 'application/gzip'],
  ['.tar.gz', 'application/gzip'],
  ['.whl', 'application/zip'],
  ['.nupkg', 'application/zip'],
];

/**
 * Serves the client SDK packages of this server's own version at /sdk/ (the npm tarball, the
 * wheel, the NuGet package, the C++ source archive) and their index, until they are on the
 * public registries: the Integration page's install lines point here. `npm run build:sdks`
 * (run by `npm start` and `npm run build`) writes them with index.json, and only the files that
 * index names are served: nothing else in the folder, whatever its name. A name carries its
 * version but a rebuild of the same version keeps it, so caches revalidate hourly. The index is
 * read per request (a rebuild shows without a restart); a server without the folder answers an
 * empty list. The two routes are the same whether or not anything is built.
 */
export function registerSdkPackages(app: FastifyInstance, directory: string): void {
  const readIndex = (): SdkPackagesIndex => {
    const indexPath = join(directory, 'index.json');
    if (!existsSync(indexPath)) return { packages: [] };
    return sdkPackagesIndexSchema.parse(JSON.parse(readFileSync(indexPath, 'utf8')));
  };

  app.get(SDK_PACKAGES_INDEX_PATH, async (_request, reply) =>
    reply.header('cache-control', 'no-cache').send(readIndex()),
  );

  app.get('/sdk/:file', async (request, reply) => {
    const parsed = sdkPackageFileParamsSchema.safeParse(request.params);
    const listed = parsed.success
      ? readIndex().packages.find((sdk) => sdk.file === parsed.data.file)
      : undefined;
    const path = listed ? join(directory, listed.file) : null;
    if (!listed || !path || !existsSync(path)) {
      return reply.status(404).type('text/plain').send('No such SDK package on this server');
    }
    const mediaType =
      MEDIA_TYPES.find(([ending]) => listed.file.endsWith(ending))?.[1] ??
      'application/octet-stream';
    return reply
      .header('cache-control', 'public, max-age=3600, must-revalidate')
      .header('content-length', statSync(path).size)
      .header('content-disposition', `attachment; filename="${listed.file}"`)
      .type(mediaType)
      .send(createReadStream(path));
  });
}
