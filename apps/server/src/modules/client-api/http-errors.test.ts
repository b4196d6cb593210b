import { beforeAll, describe, expect, it } from 'vitest';
import { clientErrorResponseSchema } from '@latchkey/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { callClientApi, insertClientApplication } from '../../../test/factories.ts';
import { startTestAppForSuite } from '../../../test/suite-test-app.ts';
import { signInOwner } from '../../../test/test-app.ts';

describe('/api/v1 HTTP errors', () => {
  let apiKey: string;

  const testApp = startTestAppForSuite({ env: { BODY_LIMIT_BYTES: '4096' } });

  beforeAll(async () => {
    const owner = await signInOwner(testApp.app);
    apiKey = (await insertClientApplication(testApp, owner.accountId)).apiKey;
  });

  /** Every /api/v1 error is JSON { success: false, code, message } and signed. */
  const expectV1Error = (response: LightMyRequestResponse, status: number, code: string) => {
    expect(response.statusCode, response.body).toBe(status);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const body = clientErrorResponseSchema.parse(response.json());
    expect(Object.keys(response.json()).sort()).toEqual(['code', 'message', 'success']);
    expect(body.code).toBe(code);
    expect(response.headers['x-signature-ed25519']).toMatch(/^[0-9a-f]{128}$/);
    return body.message;
  };

  it('answers malformed JSON with 400 INVALID_REQUEST', async () => {
    for (const payload of ['{"username":', '{bad json}', 'null x']) {
      const response = await callClientApi(testApp.app, 'login', {
        apiKey,
        headers: { 'content-type': 'application/json' },
        body: payload,
      });
      expect(expectV1Error(response, 400, 'INVALID_REQUEST')).toBe(
        'Malformed JSON in request body',
      );
    }
  });

  it('answers wrong types, non-object bodies and other content types with 400', async () => {
    const cases: [string, unknown][] = [
      ['login', { username: 1, password: 'x' }],
      ['login', { username: 'a', password: { $ne: '' } }],
      ['login', { username: 'a', password: 'x', hwid: 5 }],
      ['login', { username: 'a', password: 'x', version: 2 }],
      ['register', { username: true, password: 'x' }],
      ['verify', ['user_id']],
      ['verify', 'just a string'],
      ['session/track', { action: 'start', user_id: 1, session_token: 'x' }],
    ];
    for (const [path, body] of cases) {
      expectV1Error(
        await callClientApi(testApp.app, path, { apiKey, body }),
        400,
        'INVALID_REQUEST',
      );
    }
    const plainText = await callClientApi(testApp.app, 'verify', {
      apiKey,
      headers: { 'content-type': 'text/plain' },
      body: 'user_id=1',
    });
    expectV1Error(plainText, 400, 'INVALID_REQUEST');
    const form = await callClientApi(testApp.app, 'verify', {
      apiKey,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'user_id=1',
    });
    expectV1Error(form, 400, 'INVALID_REQUEST');
  });

  it('answers huge strings with 400 before any work is done', async () => {
    const huge = 'x'.repeat(3000);
    for (const [path, body] of [
      ['login', { username: huge, password: 'x' }],
      ['login', { username: 'a', password: 'x', hwid: huge }],
      ['login', { username: 'a', password: 'x', version: huge }],
      ['login', { username: 'a', password: 'x', api_key: huge }],
      ['register', { username: 'a', password: 'x', email: `${huge}@example.com` }],
      ['verify', { user_id: huge }],
      ['session/track', { action: 'heartbeat', session_token: huge }],
    ] as const) {
      const message = expectV1Error(
        await callClientApi(testApp.app, path, { apiKey, body }),
        400,
        'INVALID_REQUEST',
      );
      expect(message).toMatch(/at most \d+ characters/);
    }
  });

  it('answers an oversized body with 413 in the v1 shape', async () => {
    const response = await callClientApi(testApp.app, 'register', {
      apiKey,
      body: { username: 'a', password: 'p'.repeat(10_000) },
    });
    expect(expectV1Error(response, 413, 'INVALID_REQUEST')).toBe('Request body is too large');
  });

  it('answers unknown paths and methods under /api/v1 with a v1 404', async () => {
    for (const [method, path] of [
      ['POST', '/api/v1/unknown'],
      ['GET', '/api/v1/login'],
      ['GET', '/api/v1'],
      ['GET', '/api/v1/'],
      ['POST', '/api/v1/session/track/extra'],
    ] as const) {
      const response = await callClientApi(testApp.app, path, { apiKey, method });
      expect(expectV1Error(response, 404, 'INVALID_REQUEST')).toMatch(/not found/);
    }
    // Outside /api/v1 the owner API's own 404 shape is unchanged.
    const ownerApi = await testApp.app.inject({ url: '/api/v2/login' });
    expect(ownerApi.json()).toEqual({
      message: 'Route GET /api/v2/login not found',
      code: 'NOT_FOUND',
    });
  });

  it('answers a missing, malformed or unknown API key with 401 INVALID_API_KEY', async () => {
    const body = { user_id: 'x' };
    expect(
      expectV1Error(await callClientApi(testApp.app, 'verify', { body }), 401, 'INVALID_API_KEY'),
    ).toMatch(/Missing API key/);
    for (const key of [
      '',
      'short',
      `lk_live_${'z'.repeat(43)}`,
      `${apiKey}x`,
      apiKey.toUpperCase(),
    ]) {
      const response = await callClientApi(testApp.app, 'verify', { apiKey: key, body });
      expect(expectV1Error(response, 401, 'INVALID_API_KEY')).toBe(
        key === '' ? 'Missing API key: send it in the X-API-Key header' : 'Invalid API key',
      );
    }
    for (const path of ['register', 'login', 'session/track']) {
      const response = await callClientApi(testApp.app, path, {
        apiKey: `lk_live_${'z'.repeat(43)}`,
        body: { username: 'a', password: 'b', action: 'end', session_token: 'x' },
      });
      expectV1Error(response, 401, 'INVALID_API_KEY');
    }
  });
});
