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

  /** The listed package a request names, where it is and its size; null when there is none. */
  const findPackage = (params: unknown) => {
    const parsed = sdkPackageFileParamsSchema.safeParse(params);
    if (!parsed.success) return null;
    const listed = readIndex().packages.find((sdk) => sdk.file === parsed.data.file);
    if (!listed) return null;
    const path = join(directory, listed.file);
    const stats = statSync(path, { throwIfNoEntry: false });
    return stats ? { file: listed.file, path, size: stats.size } : null;
  };

  app.get('/sdk/:file', async (request, reply) => {
    const found = findPackage(request.params);
    if (!found) {
      return reply.status(404).type('text/plain').send('No such SDK package on this server');
    }
    const mediaType =
      MEDIA_TYPES.find(([ending]) => found.file.endsWith(ending))?.[1] ??
      'application/octet-stream';
    return reply
      .header('cache-control', 'public, max-age=3600, must-revalidate')
      .header('content-length', found.size)
      .header('content-disposition', `attachment; filename="${found.file}"`)
      .type(mediaType)
      .send(createReadStream(found.path));
  });
}
