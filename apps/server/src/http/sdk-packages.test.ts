import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sdkPackagesIndexSchema } from '@latchkey/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

const WHEEL = Buffer.from('PK\u0003\u0004 a wheel is a zip');

/** The folder `npm run build:sdks` writes: the packages and their index. */
function writeBuiltPackages(): string {
  const directory = mkdtempSync(join(tmpdir(), 'latchkey-sdk-dist-'));
  writeFileSync(join(directory, 'latchkey-0.1.0-py3-none-any.whl'), WHEEL);
  writeFileSync(join(directory, '.hidden'), 'not a package');
  writeFileSync(join(directory, 'unlisted.whl'), 'not a package');
  const index = {
    packages: [
      {
        language: 'python',
        name: 'latchkey',
        version: '0.1.0',
        file: 'latchkey-0.1.0-py3-none-any.whl',
        size: WHEEL.length,
        sha256: createHash('sha256').update(WHEEL).digest('hex'),
      },
    ],
  };
  writeFileSync(join(directory, 'index.json'), JSON.stringify(index));
  return directory;
}

describe('the SDK packages at /sdk/', () => {
  let testApp: TestApp;
  let bare: TestApp;

  beforeAll(async () => {
    [testApp, bare] = await Promise.all([
      createTestApp({ env: { SDK_PACKAGES_DIR: writeBuiltPackages() } }),
      createTestApp({ env: { SDK_PACKAGES_DIR: join(tmpdir(), 'latchkey-no-such-folder') } }),
    ]);
  });
  afterAll(() => Promise.all([testApp?.close(), bare?.close()]));

  it('lists the built packages, revalidated on every read', async () => {
    const response = await testApp.app.inject({ url: '/sdk/index.json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
    const index = sdkPackagesIndexSchema.parse(response.json());
    expect(index.packages.map((sdk) => sdk.file)).toEqual(['latchkey-0.1.0-py3-none-any.whl']);
  });

  it('sends a package byte for byte, as a download cached for an hour', async () => {
    const response = await testApp.app.inject({ url: '/sdk/latchkey-0.1.0-py3-none-any.whl' });
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(WHEEL)).toBe(true);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-length']).toBe(String(WHEEL.length));
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="latchkey-0.1.0-py3-none-any.whl"',
    );
    expect(response.headers['cache-control']).toBe('public, max-age=3600, must-revalidate');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('serves nothing else: no listing, no hidden file, no way out of the folder', async () => {
    for (const url of [
      '/sdk/',
      '/sdk/.hidden',
      '/sdk/../package.json',
      '/sdk/%2e%2e/x',
      '/sdk/missing.whl',
    ]) {
      const response = await testApp.app.inject({ url });
      expect(response.statusCode, url).toBe(404);
      expect(response.body, url).not.toContain('not a package');
    }
  });

  it('answers an empty list on a server with no packages built', async () => {
    const response = await bare.app.inject({ url: '/sdk/index.json' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ packages: [] });
  });
});
