import { spawnSync } from 'node:child_process';
import { expect, it } from 'vitest';
import { describeDriverConformance } from './driver-conformance.ts';
import { canBuildPythonSdk, installPythonSdk } from './installed-python-sdk.ts';

/**
 * The Python SDK's run of the conformance suite: the `latchkey` wheel is built with
 * `python3 -m build`, installed offline into a fresh virtual environment outside the
 * repository, and a long-lived Python driver performs every vector and every scenario's calls
 * through the installed package.
 */

interface PackageInfo {
  file: string;
  installedFiles: string[];
  requires: string[];
}

describeDriverConformance({
  name: 'the Python SDK (latchkey wheel)',
  available: canBuildPythonSdk,
  install: installPythonSdk,
  // The one field an SDK adds to the wire's, in Python's case; every other field keeps the
  // wire's own name.
  fieldPath: (path) => (path === 'retryAfterSeconds' ? 'retry_after_seconds' : path),
  packageTests(installed) {
    it('is a pure-Python wheel, installed outside the repository, with PyNaCl as an extra', async () => {
      const sdk = installed();
      expect(sdk.wheelName).toMatch(/^latchkey-\d+\.\d+\.\d+-py3-none-any\.whl$/);
      const info = await sdk.driver.send<PackageInfo>('info');
      expect(info.file.startsWith(sdk.venvDir)).toBe(true);
      const modules = info.installedFiles.filter((file) => file.startsWith('latchkey/'));
      expect(modules).toEqual(
        expect.arrayContaining(['latchkey/__init__.py', 'latchkey/py.typed']),
      );
      expect(info.installedFiles.filter((file) => /conformance|test/i.test(file))).toEqual([]);
      // A hard requirement would make `pip install --no-index` fail beside Debian's python3-nacl.
      expect(info.requires).toHaveLength(1);
      expect(info.requires[0]).toMatch(/^PyNaCl\s*\(?>=1\.4\)?\s*;\s*extra\s*==\s*["']nacl["']$/);
    });

    it('says what to install when PyNaCl is missing', () => {
      const sdk = installed();
      const result = spawnSync(
        sdk.python,
        ['-I', '-c', "import sys; sys.modules['nacl'] = None; import latchkey"],
        { encoding: 'utf8', cwd: sdk.workDir },
      );
      expect(result.status).not.toBe(0);
      expect(result.stderr).toContain('ImportError');
      expect(result.stderr).toContain('pip install "latchkey[nacl]"');
    });
  },
});
