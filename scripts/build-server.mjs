#!/usr/bin/env node
// `npm run build`, after the console: the compiled server. Writes dist/, which is all a
// production machine needs (copy it, `npm ci --omit=dev`, `npm start`):
//   dist/server/main.js              every server module and @latchkey/contracts, bundled
//   dist/server/migrations/          drizzle's committed SQL, applied at start-up
//   dist/server/samples/<language>/  the client sample templates the integration page renders
//   dist/server/exit-with-parent.cjs (only used with the Auth emulator, i.e. never in production)
//   dist/console/                    the built console
//   dist/sdk/                        the client SDK packages served at /sdk/ (npm run build:sdks)
//   dist/package.json, package-lock.json   the server's runtime dependencies, pinned
//
// esbuild rather than a tsc emit: the workspace's TypeScript imports use `.ts` extensions
// and @latchkey/contracts is consumed as source, which plain node cannot load; one bundle
// needs neither rewritten. npm packages stay external (installed by npm, native ones
// included: sodium-native, @node-rs/argon2), so only our code is bundled.
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { productionLockfile } from './production-lockfile.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = join(root, 'dist');
const serverOutDir = join(outDir, 'server');
const readJson = (path) => JSON.parse(readFileSync(join(root, path), 'utf8'));

const rootManifest = readJson('package.json');
const dependencies = {};
for (const manifestPath of ['apps/server/package.json', 'packages/contracts/package.json']) {
  for (const [name, range] of Object.entries(readJson(manifestPath).dependencies ?? {})) {
    if (dependencies[name] && dependencies[name] !== range) {
      throw new Error(
        `${name} is wanted as ${dependencies[name]} and as ${range} (${manifestPath})`,
      );
    }
    dependencies[name] = range;
  }
}

const consoleDist = join(root, 'apps/console/dist');
if (!existsSync(join(consoleDist, 'index.html'))) {
  throw new Error('apps/console/dist is missing: build the console first (npm run build does)');
}

rmSync(outDir, { recursive: true, force: true });
mkdirSync(serverOutDir, { recursive: true });

/** `@scope/name/sub/path` -> `@scope/name`; `name/sub` -> `name`. */
const packageNameOf = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

// A package the server imports but production does not install (a devDependency, or one
// only hoisted here by another workspace) would fail at start-up on the production machine;
// fail the build instead.
const productionDependenciesOnly = {
  name: 'production-dependencies-only',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^[^./]/ }, (args) => {
      if (isBuiltin(args.path)) return { external: true };
      const name = packageNameOf(args.path);
      if (name.startsWith('@latchkey/')) return undefined;
      if (!dependencies[name]) {
        return {
          errors: [
            {
              text: `${args.importer ? relative(root, args.importer) : '?'} imports ${name}, which is not a dependency of apps/server or packages/contracts`,
            },
          ],
        };
      }
      return { external: true };
    });
  },
};

await build({
  entryPoints: [join(root, 'apps/server/src/main.ts')],
  outfile: join(serverOutDir, 'main.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  // Error and class names show up in logs; keep them as written.
  keepNames: true,
  define: { LATCHKEY_COMPILED_BUILD: 'true' },
  plugins: [productionDependenciesOnly],
  logLevel: 'warning',
});

cpSync(join(root, 'apps/server/src/db/migrations'), join(serverOutDir, 'migrations'), {
  recursive: true,
});
cpSync(
  join(root, 'apps/server/src/identity/exit-with-parent.cjs'),
  join(serverOutDir, 'exit-with-parent.cjs'),
);

// Which file of each samples/<language>/ is the template is the contracts' catalogue; the
// folders also hold the samples' own tests, which production does not need.
const catalogueBundle = await build({
  entryPoints: [join(root, 'packages/contracts/src/samples.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  write: false,
  logLevel: 'warning',
});
const { sampleLanguageCatalogue } = await import(
  `data:text/javascript;base64,${Buffer.from(catalogueBundle.outputFiles[0].contents).toString('base64')}`
);
for (const [language, { filename }] of Object.entries(sampleLanguageCatalogue)) {
  mkdirSync(join(serverOutDir, 'samples', language), { recursive: true });
  cpSync(
    join(root, 'samples', language, filename),
    join(serverOutDir, 'samples', language, filename),
  );
}

cpSync(consoleDist, join(outDir, 'console'), { recursive: true });
const sdkPackages = join(root, 'sdks/dist');
if (existsSync(sdkPackages)) cpSync(sdkPackages, join(outDir, 'sdk'), { recursive: true });

const manifest = {
  name: 'latchkey-server',
  private: true,
  type: 'module',
  engines: rootManifest.engines,
  scripts: { start: 'node --enable-source-maps server/main.js' },
  dependencies: Object.fromEntries(Object.entries(dependencies).sort()),
};
writeFileSync(join(outDir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
writeFileSync(
  join(outDir, 'package-lock.json'),
  `${JSON.stringify(productionLockfile(readJson('package-lock.json'), manifest), null, 2)}\n`,
);

console.log(`Built the server into ${relative(root, outDir)}/ (npm run serve runs it)`);
