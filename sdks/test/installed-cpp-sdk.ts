import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { hasTool } from '../../samples/test/require-tool.ts';
import { startDriverProcess } from './driver-process.ts';

/** The Debian packages the C++ SDK, its driver and its C check build with. */
export const cppSdkAptPackages =
  'cmake g++ gcc pkg-config libcurl4-openssl-dev libsodium-dev nlohmann-json3-dev';

const packageDir = fileURLToPath(new URL('../cpp/', import.meta.url));
const consumerDir = fileURLToPath(new URL('../cpp/conformance/', import.meta.url));

const execFileAsync = promisify(execFile);

/**
 * Runs a build step without blocking the event loop (the live server starts meanwhile), and
 * answers its standard output.
 */
export async function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<string> {
  try {
    const { stdout } = await execFileAsync(command, args, {
      cwd: options.cwd,
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
      ...(options.env ? { env: options.env } : {}),
    });
    return stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed:\n${stdout}\n${stderr}`);
  }
}

/**
 * Whether this machine can build the C++ SDK and its consumers; with CI=true a missing tool
 * is a failure, not a skip.
 */
export function canBuildCppSdk(): boolean {
  return (
    hasTool('cmake', ['--version'], cppSdkAptPackages) &&
    hasTool('g++', ['--version'], cppSdkAptPackages) &&
    hasTool('gcc', ['--version'], cppSdkAptPackages) &&
    hasTool('pkg-config', ['--exists', 'libcurl', 'libsodium', 'nlohmann_json'], cppSdkAptPackages)
  );
}

/**
 * Builds the `latchkey` CMake project from sdks/cpp into a build folder outside the
 * repository (with the library's own unit tests, never installed), installs it with
 * `cmake --install` into a prefix of its own, then configures and builds the conformance
 * driver as a separate project that finds the library only through that prefix
 * (`find_package(latchkey)` with `-DCMAKE_PREFIX_PATH`), and starts it. Two jobs at most: the
 * machine is shared.
 */
export async function installCppSdk() {
  const workDir = mkdtempSync(join(tmpdir(), 'latchkey-sdk-cpp-'));
  try {
    const buildDir = join(workDir, 'build');
    const prefix = join(workDir, 'prefix');
    const driverBuildDir = join(workDir, 'driver');
    await run(
      'cmake',
      ['-S', packageDir, '-B', buildDir, '-DCMAKE_BUILD_TYPE=Release', '-DLATCHKEY_BUILD_TESTS=ON'],
      { cwd: workDir },
    );
    await run('cmake', ['--build', buildDir, '-j2'], { cwd: workDir });
    await run('cmake', ['--install', buildDir, '--prefix', prefix], { cwd: workDir });
    await run(
      'cmake',
      [
        '-S',
        consumerDir,
        '-B',
        driverBuildDir,
        '-DCMAKE_BUILD_TYPE=Release',
        `-DCMAKE_PREFIX_PATH=${prefix}`,
      ],
      { cwd: workDir },
    );
    await run('cmake', ['--build', driverBuildDir, '-j2'], { cwd: workDir });
    // The driver finds liblatchkey through the run path CMake gave it: the installed prefix's.
    const driver = startDriverProcess(join(driverBuildDir, 'conformance_driver'), [], {
      cwd: workDir,
      label: 'the C++ driver',
    });
    return {
      driver,
      workDir,
      buildDir,
      prefix,
      async remove() {
        await driver.close();
        rmSync(workDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(workDir, { recursive: true, force: true });
    throw error;
  }
}
