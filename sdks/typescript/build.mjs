#!/usr/bin/env node
// Builds @latchkey/client into dist/: one bundled file per module system (esbuild) and the
// type declarations (tsc), each set in a folder whose package.json says how Node and
// TypeScript are to read it, so `import` and `require` both get code and types of their kind.
import { spawnSync } from 'node:child_process';
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const packageDir = fileURLToPath(new URL('.', import.meta.url));
const dist = join(packageDir, 'dist');
const declarations = join(dist, 'types');
rmSync(dist, { recursive: true, force: true });

const formats = { esm: 'module', cjs: 'commonjs' };
for (const [format, type] of Object.entries(formats)) {
  await build({
    entryPoints: [join(packageDir, 'src/index.ts')],
    outfile: join(dist, format, 'index.js'),
    bundle: true,
    platform: 'node',
    target: 'node18',
    format,
    logLevel: 'warning',
  });
  writeFileSync(join(dist, format, 'package.json'), `${JSON.stringify({ type })}\n`);
}

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const typecheck = spawnSync(process.execPath, [tsc, '-p', join(packageDir, 'tsconfig.json')], {
  stdio: 'inherit',
});
if (typecheck.status !== 0) process.exit(typecheck.status ?? 1);
for (const format of Object.keys(formats)) {
  cpSync(declarations, join(dist, format), { recursive: true });
}
rmSync(declarations, { recursive: true, force: true });
