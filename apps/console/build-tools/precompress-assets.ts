import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt)$/;
// Below about a kilobyte the headers outweigh the saving.
const MIN_BYTES = 1024;

/**
 * Writes `.br` and `.gz` beside every compressible file of the build, so the server sends them
 * as they are (`@fastify/static` `preCompressed`) instead of compressing on each request.
 * Maximum levels: this runs once per build, the bytes are saved on every first visit.
 * Written here rather than taken from a plugin package: thirty lines of node:zlib, with no
 * dependency whose Vite 8 (rolldown) support would have to be trusted.
 */
export function precompressAssets(): Plugin {
  return {
    name: 'latchkey:precompress-assets',
    apply: 'build',
    async writeBundle(options, bundle) {
      const outDir = options.dir;
      if (!outDir) return;
      const files = Object.keys(bundle).filter((fileName) => COMPRESSIBLE.test(fileName));
      await Promise.all(
        files.map(async (fileName) => {
          const path = join(outDir, fileName);
          const content = await readFile(path);
          if (content.length < MIN_BYTES) return;
          const [brotliBytes, gzipBytes] = await Promise.all([
            brotli(content, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
              },
            }),
            gzipAsync(content, { level: constants.Z_BEST_COMPRESSION }),
          ]);
          await Promise.all([
            writeFile(`${path}.br`, brotliBytes),
            writeFile(`${path}.gz`, gzipBytes),
          ]);
        }),
      );
    },
  };
}
