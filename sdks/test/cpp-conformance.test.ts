import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { conformanceFile } from './conformance-scenarios.ts';
import { describeDriverConformance } from './driver-conformance.ts';
import { runBuildStep } from './build-step.ts';
import { canBuildCppSdk, installCppSdk } from './installed-cpp-sdk.ts';
import { closedPortUrl } from './scenario-expectations.ts';

/**
 * The C++ SDK's run of the conformance suite: the `latchkey` CMake project is built and
 * installed with `cmake --install` into a prefix outside the repository, and a driver, a
 * separate CMake project that finds the library only there (`find_package(latchkey)`),
 * performs every vector and every scenario's calls through the installed library. The C
 * interface (latchkey.h) is exercised from C, compiled with gcc against the same prefix.
 */

const cInterfaceCheck = fileURLToPath(
  new URL('../cpp/conformance/c_interface_check.c', import.meta.url),
);

interface PackageInfo {
  version: string;
  cVersion: string;
  libraryFile: string;
}

/** What c_interface_check.c prints: each answer of the C interface, as it answered it. */
interface CInterfaceReport {
  version: string;
  machineId: string;
  hwid: string;
  refusedKey: boolean;
  offline: { success: boolean; code: string; content?: Record<string, unknown> };
  offlineElsewhere: { success: boolean; code: string };
  call: { error?: { type: string; reason: string } };
  unknownCall: { error?: { type: string; reason: string } };
  noSession: { error?: { type: string; reason: string } };
  activation: { request?: string };
  activationCall: { value?: string };
}

/** Every file under `directory`, by its path relative to it. */
function filesUnder(directory: string): string[] {
  return readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => !entry.isDirectory())
    .map((entry) => join(entry.parentPath, entry.name).slice(directory.length + 1))
    .sort();
}

describeDriverConformance({
  name: 'the C++ SDK (latchkey CMake package)',
  available: canBuildCppSdk,
  install: installCppSdk,
  // The one field an SDK adds to the wire's, in C++'s snake_case like the library's
  // retry_after_seconds(); every other field keeps the wire's own name.
  fieldPath: (path) => (path === 'retryAfterSeconds' ? 'retry_after_seconds' : path),
  packageTests(installed) {
    it('installs its headers, its library and its CMake package, and nothing of its tests', async () => {
      const sdk = installed();
      const files = filesUnder(sdk.prefix);
      expect(files).toEqual(
        expect.arrayContaining([
          'include/latchkey.h',
          'include/latchkey/latchkey.hpp',
          'include/latchkey/client.hpp',
          'include/latchkey/result.hpp',
          'include/latchkey/errors.hpp',
          'include/latchkey/offline_license.hpp',
          'include/latchkey/latchkey_export.h',
          'include/latchkey/version.hpp',
        ]),
      );
      for (const file of [
        'liblatchkey.so',
        'cmake/latchkey/latchkeyConfig.cmake',
        'cmake/latchkey/latchkeyConfigVersion.cmake',
        'cmake/latchkey/latchkeyTargets.cmake',
        'pkgconfig/latchkey.pc',
      ]) {
        expect(files.some((path) => /^lib[^/]*\//.test(path) && path.endsWith(`/${file}`))).toBe(
          true,
        );
      }
      expect(files.filter((path) => /test|conformance|driver|\.(c|cpp)$/i.test(path))).toEqual([]);
      // The driver was linked against this prefix's library, not one of the build tree's.
      const info = await sdk.driver.send<PackageInfo>('info');
      expect(info.libraryFile.startsWith(join(sdk.prefix, 'lib'))).toBe(true);
      expect(info.version).toMatch(/^\d+\.\d+\.\d+$/);
      expect(info.cVersion).toBe(info.version);
    });

    it('keeps its JSON library out of the public headers', () => {
      const sdk = installed();
      const headers = filesUnder(join(sdk.prefix, 'include'));
      expect(headers.length).toBeGreaterThan(5);
      for (const header of headers) {
        const text = readFileSync(join(sdk.prefix, 'include', header), 'utf8');
        expect(text, header).not.toMatch(/nlohmann|curl\/|sodium/);
      }
    });

    it('passes its own unit tests, the portable AES-256-GCM included', async () => {
      const output = await runBuildStep('ctest', ['--output-on-failure'], {
        cwd: installed().buildDir,
      });
      expect(output).toContain('100% tests passed');
      expect(output).toContain('aes_256_gcm');
    });

    it('works from C through latchkey.h, compiled with gcc against the installed package', async () => {
      const sdk = installed();
      const pkgConfigFile = filesUnder(sdk.prefix).find((path) =>
        path.endsWith('pkgconfig/latchkey.pc'),
      )!;
      const libraryDir = join(sdk.prefix, dirname(dirname(pkgConfigFile)));
      const env = { ...process.env, PKG_CONFIG_PATH: join(sdk.prefix, dirname(pkgConfigFile)) };
      const flags = await runBuildStep('pkg-config', ['--cflags', '--libs', 'latchkey'], {
        cwd: sdk.workDir,
        env,
      });
      const program = join(sdk.workDir, 'c_interface_check');
      // An activation request vector for the key and the HWID the check is given.
      const vector = conformanceFile.activationRequestVectors.find(
        (each) =>
          each.hwid === 'DESKTOP-7F3K' && each.publicKey === '{{keys.example}}' && each.expect,
      )!;
      const activationOptions = {
        hwid: vector.hwid,
        ...(vector.licenseKey !== undefined ? { license_key: vector.licenseKey } : {}),
        ...(vector.username !== undefined ? { username: vector.username } : {}),
        ...(vector.deviceName !== undefined ? { device_name: vector.deviceName } : {}),
        ...(vector.encrypt !== undefined ? { encrypt: vector.encrypt } : {}),
        nonce: vector.nonce,
        now: vector.now,
      };
      await runBuildStep(
        'gcc',
        [
          '-std=c99',
          '-pedantic',
          '-Wall',
          '-Wextra',
          '-Werror',
          cInterfaceCheck,
          '-o',
          program,
          ...flags.trim().split(/\s+/),
          `-Wl,-rpath,${libraryDir}`,
        ],
        { cwd: sdk.workDir },
      );
      const output = await runBuildStep(
        program,
        [
          await closedPortUrl(),
          conformanceFile.keys.example!,
          conformanceFile.licenses.encrypted!,
          'DESKTOP-7F3K',
          '2026-06-02T00:00:00Z',
          JSON.stringify(activationOptions),
        ],
        { cwd: sdk.workDir },
      );
      const report = JSON.parse(output) as CInterfaceReport;
      const info = await sdk.driver.send<PackageInfo>('info');
      const machine = await sdk.driver.send<Record<string, string>>('thisMachine', {
        baseUrl: await closedPortUrl(),
        publicKey: conformanceFile.keys.example,
      });
      expect(report.version).toBe(info.version);
      expect(report.machineId).toBe(machine.machineId);
      expect(report.hwid).toBe(report.machineId);
      expect(report.refusedKey).toBe(true);
      expect(report.offline).toMatchObject({
        success: true,
        code: 'OK',
        content: { application_id: 42, username: 'alice', hwid: 'DESKTOP-7F3K' },
      });
      expect(report.offlineElsewhere).toMatchObject({ success: false, code: 'OTHER_MACHINE' });
      expect(report.call.error).toMatchObject({ type: 'TransportError', reason: 'unreachable' });
      expect(report.unknownCall.error).toMatchObject({
        type: 'UsageError',
        reason: 'unknown-call',
      });
      expect(report.noSession.error).toMatchObject({ type: 'UsageError', reason: 'no-session' });
      expect(report.activation).toEqual({ request: vector.expect });
      expect(report.activationCall).toEqual({ value: vector.expect });
    });
  },
});
