import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as TypeScriptSdkSource from '../typescript/src/index.ts';

/** The package as a vendor's program sees it: typed by its own source, loaded from the install. */
export type TypeScriptSdk = typeof TypeScriptSdkSource;

const packageDir = new URL('../typescript/', import.meta.url).pathname;

function run(command: string, args: string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed:\n${result.stdout}\n${result.stderr}`);
  }
  return result.stdout;
}

/**
 * Builds @latchkey/client, packs it with `npm pack` and installs the tarball into an empty
 * folder outside the repository the way a vendor would (offline: it has no dependencies), then
 * loads the installed package twice, by `import` and by `require`, each through Node's own
 * resolution of the package's `exports`.
 */
export async function installTypeScriptSdk() {
  const workDir = mkdtempSync(join(tmpdir(), 'latchkey-sdk-typescript-'));
  try {
    return { ...(await packAndInstall(workDir)), remove: () => removeFolder(workDir) };
  } catch (error) {
    removeFolder(workDir);
    throw error;
  }
}

const removeFolder = (path: string) => rmSync(path, { recursive: true, force: true });

async function packAndInstall(workDir: string) {
  const consumerDir = join(workDir, 'consumer');
  run(process.execPath, [join(packageDir, 'build.mjs')], packageDir);
  run('npm', ['pack', '--silent', '--pack-destination', workDir], packageDir);
  const tarball = readdirSync(workDir).find((name) => name.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack wrote no tarball in ${workDir}`);
  mkdirSync(consumerDir);
  writeFileSync(
    join(consumerDir, 'package.json'),
    `${JSON.stringify({ name: 'sdk-consumer', private: true, type: 'module' })}\n`,
  );
  run(
    'npm',
    ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', join(workDir, tarball)],
    consumerDir,
  );
  // Node itself resolves the name from the consumer's folder, as the consumer's code would;
  // the file it names lies under node_modules, which the test runner loads natively.
  const resolved = run(
    process.execPath,
    ['--input-type=module', '-e', "console.log(import.meta.resolve('@latchkey/client'))"],
    consumerDir,
  ).trim();
  if (!resolved.endsWith('/node_modules/@latchkey/client/dist/esm/index.js')) {
    throw new Error(`import resolved @latchkey/client to ${resolved}`);
  }
  const imported = (await import(/* @vite-ignore */ resolved)) as TypeScriptSdk;
  const required = createRequire(join(consumerDir, 'package.json'))(
    '@latchkey/client',
  ) as TypeScriptSdk;
  return {
    imported,
    required,
    tarball: join(workDir, tarball),
    consumerDir,
    installedFiles: readdirSync(join(consumerDir, 'node_modules/@latchkey/client'), {
      recursive: true,
    }),
  };
}
