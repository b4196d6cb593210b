import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import {
  callClientApi,
  createApplicationViaApi,
  insertAppUserWithPassword,
  insertClientApplication,
  insertWebhookDelivery,
} from '../../test/factories.ts';
import { parsePrometheusText, sampleValue } from '../../test/prometheus-text.ts';
import { hashPassword } from '../lib/password-hashing.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../test/suite-test-app.ts';
import { createTestApp, signInOwner, type TestApp } from '../../test/test-app.ts';
import { insertTestWebhook, startWebhookReceiver } from '../../test/webhook-test-receiver.ts';

const TOKEN = randomBytes(24).toString('base64url');
const PASSWORD = 'correct horse battery staple';
const HTTP = 'latchkey_http_request_duration_seconds';

async function scrape(testApp: TestApp) {
  const response = await testApp.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(response.statusCode, response.body).toBe(200);
  return parsePrometheusText(response.body);
}

describe('GET /metrics on the main port behind METRICS_TOKEN', () => {
  const testApp = startTestAppForSuite({ env: { METRICS_TOKEN: TOKEN } });
  const owner = signInOwnerForSuite(testApp);

  it('refuses a missing, malformed or wrong token with 401, and serves the right one', async () => {
    for (const authorization of [
      undefined,
      TOKEN,
      `Basic ${TOKEN}`,
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(1)}`,
      'Bearer ',
    ]) {
      const response = await testApp.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization === undefined ? {} : { authorization },
      });
      expect(response.statusCode, String(authorization)).toBe(401);
      expect(response.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
      expect(response.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(response.body).not.toContain('latchkey_');
    }
    // An owner's console session is no metrics token.
    const asOwner = await testApp.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: owner.headers,
    });
    expect(asOwner.statusCode).toBe(401);
    const response = await testApp.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `bearer  ${TOKEN}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('counts a client-API login with a wrong password under its code, and a right one under OK', async () => {
    const application = await insertClientApplication(testApp, owner.accountId, {
      version: '1.0.0',
    });
    const user = await insertAppUserWithPassword(testApp.database.db, application.id, PASSWORD);
    const before = await scrape(testApp);
    const codeCount = (samples: typeof before, code: string) =>
      sampleValue(samples, 'latchkey_client_api_responses_total', {
        route: '/api/v1/login',
        code,
      }) ?? 0;
    for (const password of ['wrong password 1', 'wrong password 2', PASSWORD]) {
      const response = await callClientApi(testApp.app, 'login', {
        apiKey: application.apiKey,
        body: { username: user.username, password, version: '1.0.0' },
      });
      expect(response.statusCode).toBe(200);
    }
    const unknownKey = await callClientApi(testApp.app, 'verify', {
      apiKey: `lk_${'0'.repeat(40)}`,
      body: { user_id: user.id },
    });
    expect(unknownKey.statusCode).toBe(401);

    const after = await scrape(testApp);
    expect(codeCount(after, 'INVALID_CREDENTIALS') - codeCount(before, 'INVALID_CREDENTIALS')).toBe(
      2,
    );
    expect(codeCount(after, 'OK') - codeCount(before, 'OK')).toBe(1);
    // Error answers are counted where the error handler builds them, under their route.
    expect(
      sampleValue(after, 'latchkey_client_api_responses_total', {
        route: '/api/v1/verify',
        code: 'INVALID_API_KEY',
      }),
    ).toBe(1);
    expect(
      sampleValue(after, `${HTTP}_count`, {
        route: '/api/v1/login',
        method: 'POST',
        status_class: '2xx',
      }),
    ).toBeGreaterThanOrEqual(3);
  });

  it("counts an owner route's requests under its route pattern, never the raw path", async () => {
    const application = await createApplicationViaApi(testApp.app, owner);
    for (let index = 0; index < 2; index += 1) {
      const response = await testApp.app.inject({
        method: 'GET',
        url: `/api/applications/${application.id}/users?page=1`,
        headers: owner.headers,
      });
      expect(response.statusCode).toBe(200);
    }
    const missing = await testApp.app.inject({
      method: 'GET',
      url: '/api/applications/999999/users',
      headers: owner.headers,
    });
    expect(missing.statusCode).toBe(404);
    const unknownPath = await testApp.app.inject({ method: 'GET', url: '/api/no-such-thing/42' });
    expect(unknownPath.statusCode).toBe(404);

    const samples = await scrape(testApp);
    const route = '/api/applications/:id/users';
    expect(
      sampleValue(samples, `${HTTP}_count`, { route, method: 'GET', status_class: '2xx' }),
    ).toBe(2);
    expect(
      sampleValue(samples, `${HTTP}_count`, { route, method: 'GET', status_class: '4xx' }),
    ).toBe(1);
    expect(
      sampleValue(samples, `${HTTP}_count`, {
        route: 'unmatched',
        method: 'GET',
        status_class: '4xx',
      }),
    ).toBeGreaterThanOrEqual(1);
    const routes = samples.map((sample) => sample.labels.route ?? '');
    expect(routes.filter((label) => /999999|\/42|\?/.test(label))).toEqual([]);
    expect(routes.filter((label) => label.includes(`/${application.id}/`))).toEqual([]);
    const sum = sampleValue(samples, `${HTTP}_sum`, { route, method: 'GET', status_class: '2xx' });
    expect(sum).toBeGreaterThan(0);
    expect(sum).toBeLessThan(30);
  });

  it('reports the pending webhook deliveries, due and scheduled, from the shared outbox', async () => {
    const webhook = await insertTestWebhook(testApp.database.db, testApp.config.serverSecret, {
      ownerAccountId: owner.accountId,
      url: 'https://example.com/hook',
      events: ['user_login'],
    });
    const queue = (samples: Awaited<ReturnType<typeof scrape>>, state: string) =>
      sampleValue(samples, 'latchkey_webhook_queue_deliveries', { state });
    const before = await scrape(testApp);
    const past = new Date(Date.now() - 60_000);
    for (let index = 0; index < 3; index += 1) {
      await insertWebhookDelivery(testApp.database.db, webhook.id, { nextAttemptAt: past });
    }
    await insertWebhookDelivery(testApp.database.db, webhook.id, {
      nextAttemptAt: new Date(Date.now() + 3_600_000),
    });
    await insertWebhookDelivery(testApp.database.db, webhook.id, {
      status: 'succeeded',
      completedAt: past,
    });
    const after = await scrape(testApp);
    expect(queue(after, 'due')! - queue(before, 'due')!).toBe(3);
    expect(queue(after, 'scheduled')! - queue(before, 'scheduled')!).toBe(1);
  });

  it('exports the activity backlog, the password hashes, the pool (PostgreSQL only) and the process with the latchkey_ prefix', async () => {
    await testApp.app.activity.flush();
    const samples = await scrape(testApp);
    expect(sampleValue(samples, 'latchkey_activity_pending_rows')).toBe(0);
    expect(sampleValue(samples, 'latchkey_password_hashes', { state: 'waiting' })).toBe(0);
    // Eight hashes a core: one per core runs, the rest wait, for longer than a scrape takes.
    const hashes = Array.from({ length: availableParallelism() * 8 }, () => hashPassword('x'));
    const hashing = await scrape(testApp);
    await Promise.all(hashes);
    expect(sampleValue(hashing, 'latchkey_password_hashes', { state: 'running' })).toBe(
      availableParallelism(),
    );
    expect(sampleValue(hashing, 'latchkey_password_hashes', { state: 'waiting' })).toBeGreaterThan(
      0,
    );
    expect(sampleValue(samples, 'latchkey_nodejs_eventloop_lag_p99_seconds')).toBeGreaterThan(0);
    expect(sampleValue(samples, 'latchkey_process_resident_memory_bytes')).toBeGreaterThan(0);
    const poolMax = sampleValue(samples, 'latchkey_database_pool_max_connections');
    if (testApp.database.kind === 'postgres') {
      expect(poolMax).toBe(5);
      // Seven slow queries on a pool of five: all five busy, at least two waiting.
      const sleeps = Array.from({ length: 7 }, () =>
        testApp.database.query({ text: 'select pg_sleep(0.5)' }),
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      const busy = await scrape(testApp);
      await Promise.all(sleeps);
      expect(sampleValue(busy, 'latchkey_database_pool_connections')).toBe(5);
      expect(sampleValue(busy, 'latchkey_database_pool_idle_connections')).toBe(0);
      expect(sampleValue(busy, 'latchkey_database_pool_waiting_queries')).toBeGreaterThanOrEqual(2);
    } else {
      expect(poolMax).toBeUndefined();
    }
    expect(samples.every((sample) => sample.name.startsWith('latchkey_'))).toBe(true);
  });
});

describe('GET /metrics with neither METRICS_PORT nor METRICS_TOKEN', () => {
  it('is a 404 (not the console page), and nothing is collected', async () => {
    // A console to fall back to: without the route, /metrics would be its page, with a 200.
    const consoleDir = mkdtempSync(join(tmpdir(), 'latchkey-console-'));
    writeFileSync(join(consoleDir, 'index.html'), '<!doctype html><title>Latchkey</title>');
    const testApp = await createTestApp({
      env: { SERVE_CONSOLE: 'true', CONSOLE_DIST_DIR: consoleDir },
    });
    try {
      const response = await testApp.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({
        message: 'Route GET /metrics not found',
        code: 'NOT_FOUND',
      });
      expect(testApp.app.metrics).toBeNull();
      // The console still serves its pages (an unknown path is its 404 page, with a 404).
      expect((await testApp.app.inject({ method: 'GET', url: '/dashboard' })).statusCode).toBe(200);
      expect((await testApp.app.inject({ method: 'GET', url: '/anything' })).statusCode).toBe(404);
    } finally {
      await testApp.close();
    }
  });
});

describe('METRICS_PORT: a listener of its own', () => {
  it('serves /metrics there (with the token when one is set), and the main port has none', async () => {
    const testApp = await createTestApp({ env: { METRICS_PORT: '0', METRICS_TOKEN: TOKEN } });
    try {
      await testApp.app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = testApp.app.metricsListener!.address;
      expect(testApp.app.metricsListener!.address.address).toBe('127.0.0.1');
      const at = (path: string, headers: Record<string, string> = {}) =>
        fetch(`http://127.0.0.1:${port}${path}`, { headers });

      const served = await at('/metrics?x=1', { authorization: `Bearer ${TOKEN}` });
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
      const samples = parsePrometheusText(await served.text());
      expect(sampleValue(samples, 'latchkey_activity_pending_rows')).toBeDefined();
      expect((await at('/metrics')).status).toBe(401);
      expect(
        (await at('/metrics', { authorization: 'Bearer wrong-token-wrong-token' })).status,
      ).toBe(401);
      expect((await at('/api/health')).status).toBe(404);

      const mainPort = (testApp.app.server.address() as { port: number }).port;
      const onMain = await fetch(`http://127.0.0.1:${mainPort}/metrics`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(onMain.status).toBe(404);
    } finally {
      await testApp.close();
    }
    await expect(
      fetch(`http://127.0.0.1:${testApp.app.metricsListener!.address.port}/metrics`),
    ).rejects.toThrow();
  });

  it('needs no token on its own port when none is set', async () => {
    const testApp = await createTestApp({ env: { METRICS_PORT: '0' } });
    try {
      const { port } = testApp.app.metricsListener!.address;
      const response = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(response.status).toBe(200);
      parsePrometheusText(await response.text());
      const onMain = await testApp.app.inject({ method: 'GET', url: '/metrics' });
      expect(onMain.statusCode).toBe(404);
    } finally {
      await testApp.close();
    }
  });
});

describe('webhook delivery results', () => {
  it('counts each attempt as a success, a retry or a failure', async () => {
    const receiver = await startWebhookReceiver();
    const testApp = await createTestApp({
      env: { METRICS_TOKEN: TOKEN, WEBHOOK_POLL_INTERVAL_MS: '50' },
      isWebhookDispatcherEnabled: true,
    });
    try {
      receiver.answerWith(({ path }) => ({ status: path === '/ok' ? 204 : 503 }));
      const owner = await signInOwner(testApp.app);
      const hook = (path: string, isActive = true) =>
        insertTestWebhook(testApp.database.db, testApp.config.serverSecret, {
          ownerAccountId: owner.accountId,
          url: receiver.url(path),
          events: ['user_login'],
          isActive,
        });
      await insertWebhookDelivery(testApp.database.db, (await hook('/ok')).id);
      await insertWebhookDelivery(testApp.database.db, (await hook('/down')).id);
      await insertWebhookDelivery(testApp.database.db, (await hook('/off', false)).id);
      testApp.app.webhookDispatcher!.wake();

      const attempts = (samples: Awaited<ReturnType<typeof scrape>>, result: string) =>
        sampleValue(samples, 'latchkey_webhook_delivery_attempts_total', { result });
      await vi.waitFor(
        async () => {
          const samples = await scrape(testApp);
          expect([
            attempts(samples, 'success'),
            attempts(samples, 'retry'),
            attempts(samples, 'failure'),
          ]).toEqual([1, 1, 1]);
        },
        { timeout: 10_000, interval: 100 },
      );
    } finally {
      await testApp.close();
      await receiver.close();
    }
  });
});
