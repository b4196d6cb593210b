import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testConsoleOrigin, type TestApp } from '../../test/test-app.ts';
import {
  makeTemporaryDirectory,
  removeDirectory,
  temporaryDirectoryForTest,
} from '../../test/temporary-directory.ts';

describe('HTTP behaviour shared by every route', () => {
  let testApp: TestApp;
  const distDir = makeTemporaryDirectory('latchkey-dist-');

  beforeAll(async () => {
    mkdirSync(join(distDir, 'assets'));
    writeFileSync(join(distDir, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(join(distDir, 'assets', 'index-abc123.js'), 'console.log(1)');
    testApp = await createTestApp({
      env: { SERVE_CONSOLE: 'true', CONSOLE_DIST_DIR: distDir, BODY_LIMIT_BYTES: '2048' },
    });
  });
  afterAll(async () => {
    await testApp.close();
    removeDirectory(distDir);
  });

  it('reports health with the database and identity in use', async () => {
    const response = await testApp.app.inject({ url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'ok', identity: 'emulator' });
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const response = await testApp.app.inject({ url: '/api/does-not-exist' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/application\/json/);
    expect(response.json()).toEqual({
      message: 'Route GET /api/does-not-exist not found',
      code: 'NOT_FOUND',
    });
  });

  it("answers every other path with the console's index.html, revalidated on each load", async () => {
    // A path the console has no page for is its 404 page, with the status 404.
    for (const [path, status] of [
      ['/', 200],
      ['/dashboard', 200],
      ['/no/such/page', 404],
    ] as const) {
      const response = await testApp.app.inject({ url: path });
      expect(response.statusCode, path).toBe(status);
      expect(response.body).toContain('<div id="root">');
      expect(response.headers['cache-control']).toBe('no-cache');
    }
  });

  it('caches fingerprinted assets for a year', async () => {
    const response = await testApp.app.inject({ url: '/assets/index-abc123.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('sends security headers with a content security policy', async () => {
    const response = await testApp.app.inject({ url: '/' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain(`http://${testApp.config.identity.emulatorHost}`);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
  });

  it('sends them on API answers and errors outside the client API too', async () => {
    for (const response of [
      await testApp.app.inject({ url: '/api/health' }),
      await testApp.app.inject({ url: '/api/does-not-exist' }),
      await testApp.app.inject({ url: '/api/applications' }),
    ]) {
      expect(response.headers['content-security-policy']).toContain("default-src 'self'");
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('answers malformed JSON with a 400 and a message, never a 500', async () => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/auth/firebase-login',
      headers: { 'content-type': 'application/json', origin: testConsoleOrigin },
      payload: '{"firebase_token": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: 'Malformed JSON in request body',
      code: 'BAD_REQUEST',
    });
  });

  it('answers a body over the limit with a 413', async () => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/auth/firebase-login',
      headers: { origin: testConsoleOrigin },
      payload: { firebase_token: 'x'.repeat(4096) },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });

  it('answers a wrongly typed body with a 400 naming the field', async () => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/auth/firebase-login',
      headers: { origin: testConsoleOrigin },
      payload: { firebase_token: 42 },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/^firebase_token: /);
  });

  it('echoes a sane request id and replaces an unsafe one', async () => {
    const kept = await testApp.app.inject({
      url: '/api/health',
      headers: { 'x-request-id': 'req-12345678' },
    });
    expect(kept.headers['x-request-id']).toBe('req-12345678');
    const replaced = await testApp.app.inject({
      url: '/api/health',
      headers: { 'x-request-id': 'bad id!' },
    });
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('serves the runtime Firebase settings the console needs', async () => {
    const response = await testApp.app.inject({ url: '/api/config' });
    expect(response.json()).toEqual({
      firebase: {
        apiKey: 'demo-api-key',
        authDomain: 'demo-latchkey.firebaseapp.com',
        projectId: 'demo-latchkey',
      },
      authEmulatorUrl: `http://${testApp.config.identity.emulatorHost}`,
      endUserPasswordMinLength: 8,
      // Development without SMTP_URL: the local mailbox.
      mailDelivery: 'mailbox',
    });
  });
});

describe('JSON bodies', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(() => testApp.close());

  it('treats an empty body sent as JSON as no body rather than a parse error', async () => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/auth/firebase-login',
      headers: { 'content-type': 'application/json', origin: testConsoleOrigin },
      payload: '',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/^firebase_token: /);
  });

  it('refuses prototype poisoning in JSON bodies', async () => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/auth/firebase-login',
      headers: { 'content-type': 'application/json', origin: testConsoleOrigin },
      payload: '{"firebase_token":"x","__proto__":{"isAdmin":true}}',
    });
    expect(response.statusCode).toBe(400);
  });
});

describe('inline scripts of the console', () => {
  it("allows exactly the built index.html's inline scripts by hash", async () => {
    const distDir = temporaryDirectoryForTest('latchkey-dist-');
    const script = "document.documentElement.classList.add('dark');";
    writeFileSync(join(distDir, 'index.html'), `<!doctype html><script>${script}</script>`);
    const testApp = await createTestApp({
      env: { SERVE_CONSOLE: 'true', CONSOLE_DIST_DIR: distDir },
    });
    try {
      const response = await testApp.app.inject({ url: '/' });
      const hash = createHash('sha256').update(script).digest('base64');
      const scriptSrc = String(response.headers['content-security-policy'])
        .split(';')
        .find((directive) => directive.startsWith('script-src'));
      expect(scriptSrc).toContain(`'sha256-${hash}'`);
      expect(scriptSrc).not.toContain('unsafe-inline');
    } finally {
      await testApp.close();
    }
  });
});
