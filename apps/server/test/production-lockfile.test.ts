import { describe, expect, it } from 'vitest';
// @ts-expect-error: a build script in plain JavaScript, without typings
import { productionLockfile } from '../../../scripts/production-lockfile.mjs';

const lockOf = (packages: Record<string, object>) => ({ lockfileVersion: 3, packages });

describe('the production lockfile of the compiled server', () => {
  it("keeps the closure of the server's dependencies, without the development flags", () => {
    const lock = lockOf({
      '': {},
      'node_modules/a': { version: '1.0.0', dependencies: { b: '^2' } },
      'node_modules/b': { version: '2.0.0', dev: true },
      'node_modules/unused': { version: '9.9.9' },
    });
    const produced = productionLockfile(lock, { name: 'server', dependencies: { a: '^1' } });
    expect(Object.keys(produced.packages)).toEqual(['', 'node_modules/a', 'node_modules/b']);
    expect(produced.packages['node_modules/b']).toEqual({ version: '2.0.0' });
  });

  it('refuses a dependency the workspace holds a version of its own of, naming it', () => {
    const lock = lockOf({
      '': {},
      'node_modules/p-limit': { version: '3.1.0' },
      'apps/server/node_modules/p-limit': { version: '7.3.3' },
    });
    expect(() =>
      productionLockfile(lock, { name: 'server', dependencies: { 'p-limit': '^7' } }),
    ).toThrow('p-limit is installed at apps/server/node_modules/p-limit');
  });
});
