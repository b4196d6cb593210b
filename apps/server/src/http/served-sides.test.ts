import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import type { ServedSide } from '../app.ts';

/** Routes both sides serve: a load balancer's health check, and the metrics scrape. */
const SHARED = (url: string) =>
  url === '/api/health' || url.startsWith('/api/health/') || url === '/metrics';
/** The client API: v1, and its KeyAuth-compatible sibling (/api/1.2, /api/1.3). */
const isClientApi = (url: string) =>
  url === '/api/v1' || url.startsWith('/api/v1/') || /^\/api\/1\.[23](\/|$)/.test(url);

/**
 * With CLIENT_API_PORT each instance registers one side's routes, so a request for
 * the other side's can only meet a 404. The route tables of both sides, and of `everything`,
 * built in process (client-api-port.test.ts runs the real split on PostgreSQL).
 */
describe('what each side of CLIENT_API_PORT serves', () => {
  const tables = new Map<ServedSide, string[]>();
  const apps: TestApp[] = [];

  beforeAll(async () => {
    for (const side of ['everything', 'client-api', 'console'] as const) {
      const urls: string[] = [];
      const testApp = await createTestApp({
        serves: side,
        onRoute: (route: RouteOptions) => urls.push(route.url),
      });
      apps.push(testApp);
      tables.set(side, urls);
    }
  });
  afterAll(async () => {
    for (const testApp of apps) await testApp.close();
  });

  it('the client API side: /api/v1 and the shared routes, nothing of the console', () => {
    const urls = tables.get('client-api')!;
    expect(urls.filter(isClientApi).sort()).toEqual(
      tables.get('everything')!.filter(isClientApi).sort(),
    );
    expect(urls.filter((url) => !isClientApi(url) && !SHARED(url))).toEqual([]);
  });

  it('the console side: everything else, no /api/v1 route', () => {
    const urls = tables.get('console')!;
    expect(urls.filter(isClientApi)).toEqual([]);
    expect(urls.sort()).toEqual(
      tables
        .get('everything')!
        .filter((url) => !isClientApi(url))
        .sort(),
    );
  });

  it('answers the other side with a clear 404 in its own shape', async () => {
    const [, clientSide, consoleSide] = apps;
    const owner = await clientSide!.app.inject({ url: '/api/applications' });
    expect(owner.statusCode).toBe(404);
    expect(owner.json()).toMatchObject({ code: 'NOT_FOUND' });
    const client = await consoleSide!.app.inject({ method: 'POST', url: '/api/v1/verify' });
    expect(client.statusCode).toBe(404);
    expect(client.json()).toMatchObject({ success: false, code: 'INVALID_REQUEST' });
  });
});
