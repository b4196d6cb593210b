import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { SCALAR_JITLESS_PREFIX, withScriptSources } from './api-reference.ts';

const scriptSourcesOf = (policy: string) =>
  policy
    .split(';')
    .find((directive) => directive.startsWith('script-src '))!
    .split(' ')
    .slice(1);

describe('the API reference page', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(() => testApp.close());

  it('redirects /api/reference to the page, which loads Scalar from this server', async () => {
    const redirect = await testApp.app.inject({ url: '/api/reference' });
    expect(redirect.statusCode).toBe(301);
    expect(redirect.headers.location).toBe('/api/reference/');

    const page = await testApp.app.inject({ url: '/api/reference/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('<script src="js/scalar.js"');
    expect(page.body).toContain('"url": "/api/openapi.json"');
    expect(page.body).not.toMatch(/cdn\.jsdelivr|unpkg|fonts\.scalar\.com/);

    const script = await testApp.app.inject({ url: '/api/reference/js/scalar.js' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toMatch(/^application\/javascript/);
    expect(script.body.length).toBeGreaterThan(100_000);
  });

  it("switches off the eval probe of Scalar's zod before any of Scalar's code runs", async () => {
    const script = await testApp.app.inject({ url: '/api/reference/js/scalar.js' });
    expect(script.body.startsWith(SCALAR_JITLESS_PREFIX)).toBe(true);
    // The bundle's zod still reads its settings from that global (else the prefix does nothing).
    const bundle = script.body.slice(SCALAR_JITLESS_PREFIX.length);
    expect(bundle).toContain('globalThis.__zod_globalConfig');
    expect(bundle).toContain('jitless');
  });

  it("allows exactly the page's inline script, and loosens no other route's policy", async () => {
    const page = await testApp.app.inject({ url: '/api/reference/' });
    const inline = [...page.body.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)];
    expect(inline).toHaveLength(1);
    const hash = `'sha256-${createHash('sha256').update(inline[0]![1]!).digest('base64')}'`;
    const pagePolicy = String(page.headers['content-security-policy']);
    expect(scriptSourcesOf(pagePolicy)).toContain(hash);

    const health = await testApp.app.inject({ url: '/api/health' });
    const sitePolicy = String(health.headers['content-security-policy']);
    expect(scriptSourcesOf(sitePolicy)).not.toContain(hash);
    expect(pagePolicy).toBe(withScriptSources(sitePolicy, [hash]));
    expect(scriptSourcesOf(pagePolicy)).not.toContain("'unsafe-inline'");

    const script = await testApp.app.inject({ url: '/api/reference/js/scalar.js' });
    expect(script.headers['content-security-policy']).toBe(sitePolicy);
  });
});
