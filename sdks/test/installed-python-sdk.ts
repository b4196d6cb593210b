import { cpSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hasTool } from '../../samples/test/require-tool.ts';
import { installInTemporaryFolder, runBuildStep } from './build-step.ts';
import { startDriverProcess } from './driver-process.ts';

/**
 * Debian's own interpreter, which has python3-nacl and python3-build; a `python3` earlier on
 * PATH (pyenv) may have neither.
 */
export const systemPython = '/usr/bin/python3';

const packageDir = fileURLToPath(new URL('../python/', import.meta.url));
const driverPath = fileURLToPath(
  new URL('../python/conformance/conformance_driver.py', import.meta.url),
);

const run = (command: string, args: string[], cwd: string) => runBuildStep(command, args, { cwd });

/**
 * Whether this machine can build and run the Python SDK; with CI=true a missing tool is a
 * failure, not a skip.
 */
export function canBuildPythonSdk(): boolean {
  return hasTool(
    systemPython,
    ['-c', 'import build, nacl.signing, setuptools, venv, ensurepip'],
    'python3-build python3-setuptools python3-venv python3-nacl',
  );
}

/**
 * Builds the `latchkey` wheel with `python3 -m build` (from a copy of the package, so the
 * build leaves nothing in the repository), creates a virtual environment in `workDir` (outside
 * the repository) that sees the system's python3-nacl, and installs the wheel into it offline
 * the way a vendor would. Programs run with the answered `python` import the installed package.
 */
export async function installPythonSdkPackage(workDir: string) {
  const sourceDir = join(workDir, 'source');
  cpSync(packageDir, sourceDir, {
    recursive: true,
    filter: (path) => !/(__pycache__|\.egg-info|\/build|\/dist)$/.test(path),
  });
  const distDir = join(workDir, 'dist');
  await run(
    systemPython,
    ['-m', 'build', '--wheel', '--no-isolation', '--outdir', distDir, sourceDir],
    workDir,
  );
  const wheel = readdirSync(distDir).find((name) => name.endsWith('.whl'));
  if (!wheel) throw new Error(`python3 -m build wrote no wheel in ${distDir}`);
  const venvDir = join(workDir, 'venv');
  await run(systemPython, ['-m', 'venv', '--system-site-packages', venvDir], workDir);
  const python = join(venvDir, 'bin', 'python');
  await run(
    python,
    [
      '-m',
      'pip',
      'install',
      '--no-index',
      '--disable-pip-version-check',
      '--no-input',
      '--quiet',
      join(distDir, wheel),
    ],
    workDir,
  );
  return { python, venvDir, wheel: join(distDir, wheel), wheelName: basename(wheel) };
}

/**
 * The installed package (`installPythonSdkPackage`) with the conformance driver started by
 * that environment's interpreter, so every call goes through the installed package.
 */
export function installPythonSdk() {
  return installInTemporaryFolder('latchkey-sdk-python-', async (workDir) => {
    const installed = await installPythonSdkPackage(workDir);
    // `-I` (isolated): no PYTHONPATH, no user site and not the script's folder, so `import
    // latchkey` can only find the installed package.
    const driver = startDriverProcess(installed.python, ['-I', driverPath], {
      cwd: workDir,
      label: 'the Python driver',
    });
    return { ...installed, driver };
  });
}
