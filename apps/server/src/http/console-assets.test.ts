import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { makeTemporaryDirectory, removeDirectory } from '../../test/temporary-directory.ts';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const INDEX_HTML = `<!doctype html><div id="root"></div>${'<!-- padding -->'.repeat(100)}`;
const BUNDLE_JS = `console.log(${JSON.stringify('x'.repeat(4000))});`;

/** A built console as the Vite build leaves it: each file beside its brotli and gzip copies. */
function writeBuiltConsole(): string {
  const distDir = makeTemporaryDirectory('latchkey-dist-');
  mkdirSync(join(distDir, 'assets'));
  const files = { 'index.html': INDEX_HTML, 'assets/index-abc123.js': BUNDLE_JS };
  for (const [name, content] of Object.entries(files)) {
    writeFileSync(join(distDir, name), content);
    writeFileSync(join(distDir, `${name}.br`), brotliCompressSync(content));
    writeFileSync(join(distDir, `${name}.gz`), gzipSync(content));
  }
  // Too small to be worth compressing, so the build wrote no copies of it.
  writeFileSync(join(distDir, 'assets', 'tiny-abc123.js'), 'export {};');
  return distDir;
}

describe('console assets', () => {
  let testApp: TestApp;
  const distDir = writeBuiltConsole();

  beforeAll(async () => {
    testApp = await createTestApp({ env: { SERVE_CONSOLE: 'true', CONSOLE_DIST_DIR: distDir } });
  });
  afterAll(async () => {
    await testApp.close();
    removeDirectory(distDir);
  });

  it('sends the brotli copy of a hashed asset to a browser that accepts it, cached for a year', async () => {
    const response = await testApp.app.inject({
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'gzip, deflate, br, zstd' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe(IMMUTABLE);
    expect(String(response.headers.vary)).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(BUNDLE_JS);
  });

  it('sends the gzip copy when brotli is not accepted', async () => {
    const response = await testApp.app.inject({
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers['cache-control']).toBe(IMMUTABLE);
    expect(Number(response.headers['content-length'])).toBe(gzipSync(BUNDLE_JS).length);
    expect(gunzipSync(response.rawPayload).toString()).toBe(BUNDLE_JS);
  });

  it('sends the file as it is to a client that accepts no compression, or when no copy exists', async () => {
    const plain = await testApp.app.inject({
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(BUNDLE_JS);

    const tiny = await testApp.app.inject({
      url: '/assets/tiny-abc123.js',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(tiny.statusCode).toBe(200);
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body).toBe('export {};');
    expect(tiny.headers['cache-control']).toBe(IMMUTABLE);
  });

  it('sends index.html compressed and revalidated on every load, at / and at client routes', async () => {
    for (const url of [
      '/',
      '/index.html',
      '/blacklist',
      '/app/3',
      '/app/',
      '/Dashboard/',
      '/docs?q=1',
    ]) {
      const response = await testApp.app.inject({
        url,
        headers: { 'accept-encoding': 'gzip, br' },
      });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-encoding'], url).toBe('br');
      expect(response.headers['cache-control'], url).toBe('no-cache');
      expect(brotliDecompressSync(response.rawPayload).toString(), url).toBe(INDEX_HTML);
    }
  });

  it('answers a path that is none of the console pages with the 404 page and the status 404', async () => {
    for (const url of [
      '/nope',
      '/dashboard/extra',
      '/app/3/x',
      '/wp-login.php',
      '/firebase-login/x',
    ]) {
      for (const method of ['GET', 'HEAD'] as const) {
        const response = await testApp.app.inject({ method, url });
        expect(response.statusCode, `${method} ${url}`).toBe(404);
        expect(response.headers['content-type'], url).toMatch(/^text\/html/);
        expect(response.headers['cache-control'], url).toBe('no-cache');
        if (method === 'GET') expect(response.body, url).toBe(INDEX_HTML);
      }
    }
  });
});
