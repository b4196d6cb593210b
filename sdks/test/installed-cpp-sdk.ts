import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hasTool } from '../../samples/test/require-tool.ts';
import { installInTemporaryFolder, runBuildStep as run } from './build-step.ts';
import { startDriverProcess } from './driver-process.ts';

/** The Debian packages the C++ SDK, its driver and its C check build with. */
export const cppSdkAptPackages =
  'cmake g++ gcc pkg-config libcurl4-openssl-dev libsodium-dev nlohmann-json3-dev';

const packageDir = fileURLToPath(new URL('../cpp/', import.meta.url));
const consumerDir = fileURLToPath(new URL('../cpp/conformance/', import.meta.url));

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
 * Builds the `latchkey` CMake project from sdks/cpp in `workDir` (outside the repository) and
 * installs it with `cmake --install` into a prefix of its own, as a vendor does with the
 * unpacked archive. With `withUnitTests` the build folder also holds the library's own unit
 * tests (for `ctest`; never installed). Two jobs at most: the machine is shared.
 */
export async function buildAndInstallCppSdk(
  workDir: string,
  { withUnitTests }: { withUnitTests: boolean },
) {
  const buildDir = join(workDir, 'build');
  const prefix = join(workDir, 'prefix');
  await run(
    'cmake',
    [
      '-S',
      packageDir,
      '-B',
      buildDir,
      '-DCMAKE_BUILD_TYPE=Release',
      `-DLATCHKEY_BUILD_TESTS=${withUnitTests ? 'ON' : 'OFF'}`,
    ],
    { cwd: workDir },
  );
  await run('cmake', ['--build', buildDir, '-j2'], { cwd: workDir });
  await run('cmake', ['--install', buildDir, '--prefix', prefix], { cwd: workDir });
  return { buildDir, prefix };
}

/**
 * The SDK built and installed (with its unit tests), then the conformance driver configured
 * and built as a separate project that finds the library only through that prefix
 * (`find_package(latchkey)` with `-DCMAKE_PREFIX_PATH`), and started.
 */
export function installCppSdk() {
  return installInTemporaryFolder('latchkey-sdk-cpp-', async (workDir) => {
    const { buildDir, prefix } = await buildAndInstallCppSdk(workDir, { withUnitTests: true });
    const driverBuildDir = join(workDir, 'driver');
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
    return { driver, buildDir, prefix };
  });
}
