#!/usr/bin/env node
// `npm run build:sdks`: builds each client SDK into the package a vendor installs, into
// sdks/dist/, with an index.json the server answers at /sdk/ (the console's Integration page
// reads it to show each package's one-line install):
//   latchkey-client-<v>.tgz             TypeScript, `npm pack` of sdks/typescript
//   latchkey-<v>-py3-none-any.whl       Python, `python3 -m build` (Debian's python3-build)
//   Latchkey.Client.<v>.nupkg           C#, mcs and `nuget pack` (Debian's mono-mcs, nuget)
//   latchkey-cpp-<v>.tar.gz             C++, the CMake project's sources (built by the vendor)
// A package whose sources are older than its built file is kept, so `npm start` pays for
// this once. A package whose toolchain this machine lacks is left out with a line saying
// what to install: a server serves the packages it has. `--strict` (CI, release) fails instead.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const sdksDir = join(root, 'sdks');
const outDir = join(sdksDir, 'dist');
const strict = process.argv.includes('--strict');

/** Build outputs and test-only parts, never inside a package nor a reason to rebuild one. */
const IGNORED =
  /(^|\/)(node_modules|dist|build|__pycache__|[^/]*\.egg-info|conformance|bin|obj)(\/|$)/;

function newestModification(path) {
  if (!existsSync(path) || IGNORED.test(relative(sdksDir, path))) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce(
    (newest, entry) => Math.max(newest, newestModification(join(path, entry))),
    0,
  );
}

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
  if (result.error || result.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} failed:\n${result.error?.message ?? ''}${result.stdout}${result.stderr}`,
    );
  }
  return result.stdout;
}

/** Whether `command args` runs; the toolchain checks. */
function works(command, args) {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  return !result.error && result.status === 0;
}

const readText = (path) => readFileSync(join(sdksDir, path), 'utf8');
const versionIn = (path, pattern) => {
  const match = pattern.exec(readText(path));
  if (!match) throw new Error(`no version found in sdks/${path}`);
  return match[1];
};

/** Debian's own interpreter: a pyenv `python3` earlier on PATH has no python3-build. */
const systemPython = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

const packages = [
  {
    language: 'nodejs',
    name: '@latchkey/client',
    source: 'typescript',
    version: () => JSON.parse(readText('typescript/package.json')).version,
    file: (version) => `latchkey-client-${version}.tgz`,
    missing: () => null,
    build(work, version) {
      const packageDir = join(sdksDir, 'typescript');
      run(process.execPath, [join(packageDir, 'build.mjs')], packageDir);
      run('npm', ['pack', '--silent', '--pack-destination', work], packageDir);
      return join(work, `latchkey-client-${version}.tgz`);
    },
  },
  {
    language: 'python',
    name: 'latchkey',
    source: 'python',
    version: () => versionIn('python/pyproject.toml', /^version\s*=\s*"([^"]+)"/m),
    file: (version) => `latchkey-${version}-py3-none-any.whl`,
    missing: () =>
      works(systemPython, ['-c', 'import build, setuptools'])
        ? null
        : 'python3-build python3-setuptools',
    build(work, version) {
      // From a copy: setuptools writes build/ and *.egg-info beside the sources.
      const copy = join(work, 'source');
      cpSync(join(sdksDir, 'python'), copy, {
        recursive: true,
        filter: (path) => !IGNORED.test(relative(join(sdksDir, 'python'), path)),
      });
      run(systemPython, ['-m', 'build', '--wheel', '--no-isolation', '--outdir', work, copy], work);
      return join(work, `latchkey-${version}-py3-none-any.whl`);
    },
  },
  {
    language: 'csharp',
    name: 'Latchkey.Client',
    source: 'csharp',
    version: () => versionIn('csharp/Latchkey.Client.nuspec', /<version>([^<]+)<\/version>/),
    file: (version) => `Latchkey.Client.${version}.nupkg`,
    missing: () =>
      works('mcs', ['--version']) && works('sh', ['-c', 'command -v nuget'])
        ? null
        : 'mono-mcs nuget',
    build(work, version) {
      run('bash', [join(sdksDir, 'csharp', 'build.sh'), work], join(sdksDir, 'csharp'));
      return join(work, `Latchkey.Client.${version}.nupkg`);
    },
  },
  {
    language: 'cpp',
    name: 'latchkey',
    source: 'cpp',
    version: () => versionIn('cpp/CMakeLists.txt', /project\(\s*latchkey\s+VERSION\s+([0-9.]+)/),
    file: (version) => `latchkey-cpp-${version}.tar.gz`,
    missing: () => (works('tar', ['--version']) ? null : 'tar'),
    build(work, version) {
      const archive = join(work, `latchkey-cpp-${version}.tar.gz`);
      run(
        'tar',
        [
          '--create',
          '--gzip',
          '--file',
          archive,
          '--exclude=conformance',
          '--exclude=build',
          '--sort=name',
          '--owner=0',
          '--group=0',
          '--numeric-owner',
          `--transform=s,^cpp,latchkey-${version},`,
          'cpp',
        ],
        sdksDir,
      );
      return archive;
    },
  },
];

mkdirSync(outDir, { recursive: true });
const index = [];
const problems = [];
for (const sdk of packages) {
  if (!existsSync(join(sdksDir, sdk.source))) continue;
  const version = sdk.version();
  const file = sdk.file(version);
  const target = join(outDir, file);
  const isFresh =
    existsSync(target) && statSync(target).mtimeMs >= newestModification(join(sdksDir, sdk.source));
  if (!isFresh) {
    const missing = sdk.missing();
    if (missing) {
      problems.push(`${sdk.name} (${sdk.language}) not built: install ${missing}`);
      continue;
    }
    const work = mkdtempSync(join(tmpdir(), `latchkey-sdk-${sdk.language}-`));
    try {
      const built = sdk.build(work, version);
      renameSync(built, target);
    } catch (error) {
      problems.push(`${sdk.name} (${sdk.language}) failed: ${error.message}`);
      continue;
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  const bytes = readFileSync(target);
  index.push({
    language: sdk.language,
    name: sdk.name,
    version,
    file,
    size: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
  });
}

// Packages of earlier versions, and of SDKs since removed, are not served.
const served = new Set([...index.map((entry) => entry.file), 'index.json']);
for (const entry of readdirSync(outDir)) {
  if (!served.has(entry)) rmSync(join(outDir, entry), { recursive: true, force: true });
}
writeFileSync(join(outDir, 'index.json'), `${JSON.stringify({ packages: index }, null, 2)}\n`);

for (const problem of problems) console.warn(`build:sdks: ${problem}`);
console.log(`build:sdks: ${index.map((entry) => entry.file).join(', ') || 'no packages'}`);
if (strict && problems.length > 0) process.exit(1);
