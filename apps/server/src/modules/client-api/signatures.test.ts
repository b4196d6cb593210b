import { beforeAll, describe, expect, it } from 'vitest';
import {
  applicationListSchema,
  clientPublicKeyResponseSchema,
  type Application,
} from '@latchkey/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { createManualClock } from '../../lib/clock.ts';
import {
  callClientApi,
  createApplicationViaApi,
  insertAppUserWithPassword,
} from '../../../test/factories.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { isSignedBy } from '../../../test/client-calls.ts';

const SERVER_SECRET = 'signatures-test-secret-that-is-long-enough';

describe('signed /api/v1 responses', () => {
  let application: Application;
  let serverPublicKey: string;
  const now = new Date('2026-04-01T12:00:00.750Z');
  const clock = createManualClock(now);

  const testApp = startTestAppForSuite({
    clock,
    env: { SERVER_SECRET, BODY_LIMIT_BYTES: '2048', CLIENT_API_IP_LIMIT_PER_MINUTE: '50' },
  });
  const owner = signInOwnerForSuite(testApp);

  beforeAll(async () => {
    await createApplicationViaApi(testApp.app, owner);
    // The public key a vendor copies from the console: the owner API's signingPublicKey.
    const listed = await testApp.app.inject({ url: '/api/applications', headers: owner.headers });
    application = applicationListSchema.parse(listed.json())[0]!;
    const published = await callClientApi(testApp.app, 'public-key', { method: 'GET' });
    serverPublicKey = clientPublicKeyResponseSchema.parse(published.json()).public_key;
  });

  it('signs successes and business failures with the application key', async () => {
    const user = await insertAppUserWithPassword(testApp.database.db, application.id, 'pw');
    const responses = [
      await callClientApi(testApp.app, 'login', {
        apiKey: application.apiKey,
        body: { username: user.username, password: 'pw', version: '1.0.0' },
      }),
      await callClientApi(testApp.app, 'login', {
        apiKey: application.apiKey,
        body: { username: user.username, password: 'wrong', version: '1.0.0' },
      }),
      await callClientApi(testApp.app, 'verify', {
        apiKey: application.apiKey,
        body: { user_id: user.id },
      }),
      await callClientApi(testApp.app, 'session/track', {
        apiKey: application.apiKey,
        body: { action: 'heartbeat', session_token: 'unknown' },
      }),
      await callClientApi(testApp.app, 'register', {
        apiKey: application.apiKey,
        body: { username: user.username, password: 'long enough' },
      }),
    ];
    expect(responses.map((response) => response.json().code)).toEqual([
      'OK',
      'INVALID_CREDENTIALS',
      'OK',
      'SESSION_INVALID',
      'USERNAME_TAKEN',
    ]);
    for (const response of responses) {
      expect(response.headers['x-signature-ed25519']).toMatch(/^[0-9a-f]{128}$/);
      // Unix seconds of the server clock.
      expect(response.headers['x-signature-timestamp']).toBe('1775044800');
      expect(isSignedBy(application.signingPublicKey, response)).toBe(true);
      expect(isSignedBy(serverPublicKey, response)).toBe(false);
    }
  });

  it('binds the nonce: the right nonce verifies, a wrong or missing one does not', async () => {
    const nonce = 'c2f1b6a0-7e44-4f7e-9d1b-0b8f6f7f9e11';
    const response = await callClientApi(testApp.app, 'verify', {
      apiKey: application.apiKey,
      body: { user_id: 'nobody' },
      nonce,
    });
    expect(isSignedBy(application.signingPublicKey, response, nonce)).toBe(true);
    expect(isSignedBy(application.signingPublicKey, response, 'another-nonce')).toBe(false);
    expect(isSignedBy(application.signingPublicKey, response, '')).toBe(false);
  });

  it('fails verification for a tampered body or timestamp', async () => {
    const response = await callClientApi(testApp.app, 'verify', {
      apiKey: application.apiKey,
      body: { user_id: 'nobody' },
    });
    const body = response.body;
    expect(body).toContain('"success":false');
    const forged = Buffer.from(body.replace('"success":false', '"success":true'));
    expect(isSignedBy(application.signingPublicKey, response, '', forged)).toBe(false);
    expect(isSignedBy(application.signingPublicKey, response, '', Buffer.from(`${body} `))).toBe(
      false,
    );
    const replayed = {
      ...response,
      headers: { ...response.headers, 'x-signature-timestamp': '1775044801' },
    } as LightMyRequestResponse;
    expect(isSignedBy(application.signingPublicKey, replayed)).toBe(false);
  });

  it('signs HTTP errors of a known key with the application key: 400, 404, 413, 429', async () => {
    const nonce = 'n-1';
    const malformed = await callClientApi(testApp.app, 'login', {
      apiKey: application.apiKey,
      headers: { 'content-type': 'application/json' },
      body: '{"username":',
      nonce,
    });
    const unknownPath = await callClientApi(testApp.app, 'nope', {
      apiKey: application.apiKey,
      nonce,
    });
    const oversized = await callClientApi(testApp.app, 'login', {
      apiKey: application.apiKey,
      body: { username: 'x', password: 'p'.repeat(4096) },
      nonce,
    });
    expect([malformed.statusCode, unknownPath.statusCode, oversized.statusCode]).toEqual([
      400, 404, 413,
    ]);
    for (const response of [malformed, unknownPath, oversized]) {
      expect(isSignedBy(application.signingPublicKey, response, nonce)).toBe(true);
    }

    const otherIp = '127.0.0.9';
    let limited: LightMyRequestResponse | undefined;
    for (let index = 0; index < 60 && !limited; index += 1) {
      const response = await callClientApi(testApp.app, 'verify', {
        apiKey: application.apiKey,
        body: { user_id: 'x' },
        remoteAddress: otherIp,
        nonce,
      });
      if (response.statusCode === 429) limited = response;
    }
    expect(limited).toBeDefined();
    expect(isSignedBy(application.signingPublicKey, limited!, nonce)).toBe(true);
  });

  it('signs answers to a missing or unknown key with the server-wide key', async () => {
    const missing = await callClientApi(testApp.app, 'verify', { body: { user_id: 'x' } });
    const unknown = await callClientApi(testApp.app, 'verify', {
      apiKey: `lk_live_${'A'.repeat(43)}`,
      body: { user_id: 'x' },
      nonce: 'abc',
    });
    const publicKey = await callClientApi(testApp.app, 'public-key', { method: 'GET' });
    expect([missing.statusCode, unknown.statusCode, publicKey.statusCode]).toEqual([401, 401, 200]);
    expect(isSignedBy(serverPublicKey, missing)).toBe(true);
    expect(isSignedBy(serverPublicKey, unknown, 'abc')).toBe(true);
    expect(isSignedBy(serverPublicKey, publicKey)).toBe(true);
    expect(isSignedBy(application.signingPublicKey, unknown, 'abc')).toBe(false);
  });

  it('refuses an overlong or non-ASCII nonce with 400, signed without it', async () => {
    for (const nonce of ['n'.repeat(129), 'café', 'two words']) {
      const response = await callClientApi(testApp.app, 'verify', {
        apiKey: application.apiKey,
        body: { user_id: 'x' },
        headers: { 'x-request-nonce': nonce },
      });
      expect(response.statusCode, nonce).toBe(400);
      expect(response.json()).toMatchObject({ success: false, code: 'INVALID_REQUEST' });
      expect(response.json().message).toMatch(/x-request-nonce/i);
      expect(isSignedBy(application.signingPublicKey, response, '')).toBe(true);
    }
    const longest = await callClientApi(testApp.app, 'verify', {
      apiKey: application.apiKey,
      body: { user_id: 'x' },
      nonce: 'n'.repeat(128),
    });
    expect(longest.statusCode).toBe(200);
    expect(isSignedBy(application.signingPublicKey, longest, 'n'.repeat(128))).toBe(true);
  });

  it("carries the request id and the signature, and none of the console's browser headers", async () => {
    const user = await insertAppUserWithPassword(testApp.database.db, application.id, 'pw');
    for (const response of [
      await callClientApi(testApp.app, 'verify', {
        apiKey: application.apiKey,
        body: { user_id: user.id },
        headers: { 'x-request-id': 'client-req-0001' },
      }),
      await callClientApi(testApp.app, 'verify', { apiKey: application.apiKey, body: '{' }),
      await callClientApi(testApp.app, 'no-such-path', { apiKey: application.apiKey }),
    ]) {
      expect(response.headers['x-signature-ed25519']).toMatch(/^[0-9a-f]{128}$/);
      expect(response.headers['x-request-id']).toMatch(/^(client-req-0001|[0-9a-f-]{36})$/);
      // Helmet and the cookie parser belong to the browser scope: their per-request hooks
      // (and a dozen headers a desktop program ignores) stay off the client API.
      expect(response.headers['content-security-policy']).toBeUndefined();
      expect(response.headers['x-frame-options']).toBeUndefined();
      expect(response.headers['set-cookie']).toBeUndefined();
    }
  });

  it('derives the same server-wide key on every instance with the same secret', async () => {
    const sibling = await createTestApp({ env: { SERVER_SECRET } });
    const stranger = await createTestApp({ env: { SERVER_SECRET: `${SERVER_SECRET}-other` } });
    try {
      const keyOf = async (app: TestApp) =>
        (await callClientApi(app.app, 'public-key', { method: 'GET' })).json().public_key;
      expect(await keyOf(sibling)).toBe(serverPublicKey);
      expect(await keyOf(stranger)).not.toBe(serverPublicKey);
    } finally {
      await sibling.close();
      await stranger.close();
    }
  });
});
