import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appUserSessions } from '../../db/schema/index.ts';
import { createManualClock } from '../../lib/clock.ts';
import { verifyApplicationSignature } from '../../lib/signing-keys.ts';
import { insertAppUser, insertClientApplication } from '../../../test/factories.ts';
import { parsePrometheusText, sampleValue } from '../../../test/prometheus-text.ts';
import { sendOverHttp } from '../../../test/send-over-http.ts';
import { createTestApp, signInOwner, type TestApp } from '../../../test/test-app.ts';

/**
 * Verify and heartbeat are answered before Fastify's lifecycle (lean-client-path.ts)
 * when a request reaches the server over a socket. `inject` always goes through Fastify, so
 * sending one request both ways shows whether the two paths answer alike. v1-answers.test.ts
 * pins the common calls to recorded bytes; here random bodies, the rate limit, the client's
 * address behind a proxy and the metrics.
 */

interface Answer {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

interface Sent {
  path: string;
  headers: Record<string, string>;
  payload: string | Buffer;
}

/** What a client sees of an answer, minus what differs by design (date, connection). */
const COMPARED_HEADERS = [
  'content-type',
  'content-length',
  'retry-after',
  'x-request-id',
  'x-signature-ed25519',
  'x-signature-timestamp',
];
const comparable = (answer: Answer) => ({
  statusCode: answer.statusCode,
  body: answer.body,
  headers: Object.fromEntries(
    COMPARED_HEADERS.flatMap((name) =>
      answer.headers[name] === undefined ? [] : [[name, String(answer.headers[name])]],
    ),
  ),
});

const overHttp = (port: number, sent: Sent): Promise<Answer> =>
  sendOverHttp(port, { method: 'POST', ...sent });

async function byInject(testApp: TestApp, sent: Sent, remoteAddress = '127.0.0.1') {
  const response = await testApp.app.inject({
    method: 'POST',
    url: sent.path,
    remoteAddress,
    headers: sent.headers,
    payload: sent.payload,
  });
  return { statusCode: response.statusCode, headers: response.headers, body: response.body };
}

async function listen(testApp: TestApp): Promise<number> {
  await testApp.app.listen({ host: '127.0.0.1', port: 0 });
  return (testApp.app.server.address() as AddressInfo).port;
}

const SESSION_TOKEN = `sess_${'d'.repeat(32)}_1780315200`;

describe('the lean path answers exactly as Fastify does', () => {
  let testApp: TestApp;
  let port: number;
  let apiKey: string;
  let userId: string;
  const clock = createManualClock(new Date('2026-06-01T12:00:00.250Z'));

  beforeAll(async () => {
    testApp = await createTestApp({
      clock,
      env: { CLIENT_API_IP_LIMIT_PER_MINUTE: '1000000', BODY_LIMIT_BYTES: '4096' },
    });
    const owner = await signInOwner(testApp.app);
    const application = await insertClientApplication(testApp, owner.accountId);
    apiKey = application.apiKey;
    // No recent login, so no call here changes what the next one sees (a session started
    // over the socket would make the same start through Fastify answer otherwise).
    const user = await insertAppUser(testApp.database.db, application.id);
    userId = user.id;
    port = await listen(testApp);
    // The key's application is cached by a first call (a miss is Fastify's to load).
    const first = await byInject(testApp, {
      path: '/api/v1/verify',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      payload: JSON.stringify({ user_id: userId }),
    });
    expect(first.statusCode).toBe(200);
  });
  afterAll(() => testApp?.close());

  const text = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.constantFrom('', 'a\u0000b', '\ud800', 'start', 'heartbeat', 'end', 'x'.repeat(300)),
  );
  const json = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.record(
      {
        user_id: fc.oneof(text, fc.constant('USER'), fc.integer()),
        entitlements: fc.oneof(fc.array(text, { maxLength: 60 }), text),
        action: fc.oneof(fc.constantFrom('start', 'heartbeat', 'end'), text),
        session_token: fc.oneof(fc.constant(SESSION_TOKEN), text),
        hwid: text,
      },
      { requiredKeys: [] },
    ),
  );
  // Mostly JSON; sometimes text that is not (malformed, escapes, bytes that are not UTF-8).
  const payload = fc.oneof(
    { weight: 6, arbitrary: json.map((value) => JSON.stringify(value) ?? 'null') },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '{"user_id":',
        '{"user_id":"a\\u0000b"}',
        '{"__proto__":{"x":1}}',
        '{"user_id":"\\udc00"}',
        '[1,2',
        ' ',
      ),
    },
    { weight: 1, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 64 }).map(Buffer.from) },
  );

  it('for random bodies to verify and heartbeat, with and without a nonce', async () => {
    let sentOverHttp = 0;
    const before = testApp.app.clientApiLeanPath.answeredCount;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/api/v1/verify', '/api/v1/session/track'),
        payload,
        fc.option(fc.stringMatching(/^[\w.:-]{1,64}$/), { nil: undefined }),
        fc.constantFrom('application/json', 'application/json; charset=utf-8'),
        async (path, body, nonce, contentType) => {
          const bytes =
            typeof body === 'string' ? Buffer.from(body.replaceAll('USER', userId)) : body;
          const sent: Sent = {
            path,
            headers: {
              'content-type': contentType,
              'x-api-key': apiKey,
              'x-request-id': 'fuzz-request-1',
              ...(nonce === undefined ? {} : { 'x-request-nonce': nonce }),
            },
            payload: bytes,
          };
          const lean = await overHttp(port, sent);
          sentOverHttp += 1;
          const viaFastify = await byInject(testApp, sent);
          expect(comparable(lean)).toEqual(comparable(viaFastify));
        },
      ),
      { numRuns: 300 },
    );
    // Every one of them was the lean path's to answer.
    expect(testApp.app.clientApiLeanPath.answeredCount - before).toBe(sentOverHttp);
  });

  it('sets a request id of its own when the caller sends none, or one that is not a token', async () => {
    for (const requestId of [undefined, 'short', 'with spaces in it', 'x'.repeat(65)]) {
      const answer = await overHttp(port, {
        path: '/api/v1/verify',
        headers: {
          'content-type': 'application/json',
          'x-api-key': apiKey,
          ...(requestId === undefined ? {} : { 'x-request-id': requestId }),
        },
        payload: JSON.stringify({ user_id: userId }),
      });
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});

describe('the lean path beside the rate limit, a proxy and the metrics', () => {
  const METRICS_TOKEN = 'lean-path-metrics-token-long-enough';
  let testApp: TestApp;
  let port: number;
  let application: Awaited<ReturnType<typeof insertClientApplication>>;
  const clock = createManualClock(new Date('2026-06-01T12:00:00.000Z'));

  beforeAll(async () => {
    testApp = await createTestApp({
      clock,
      env: {
        CLIENT_API_IP_LIMIT_PER_MINUTE: '3',
        TRUST_PROXY_HOPS: '1',
        METRICS_TOKEN,
      },
    });
    const owner = await signInOwner(testApp.app);
    application = await insertClientApplication(testApp, owner.accountId);
    port = await listen(testApp);
  });
  afterAll(() => testApp?.close());

  const verifyFrom = (forwardedFor: string, userId: string) => ({
    path: '/api/v1/verify',
    headers: {
      'content-type': 'application/json',
      'x-api-key': application.apiKey,
      'x-forwarded-for': forwardedFor,
      'x-request-id': 'rate-limit-test',
    },
    payload: JSON.stringify({ user_id: userId }),
  });

  it("spends the caller's budget and answers a signed 429, as Fastify does", async () => {
    const user = await insertAppUser(testApp.database.db, application.id);
    // The first call caches the key; the next two spend the rest of 198.51.100.7's budget.
    for (let call = 0; call < 3; call += 1) {
      const answer = await overHttp(port, verifyFrom('198.51.100.7', user.id));
      expect(answer.statusCode, answer.body).toBe(200);
    }
    const before = testApp.app.clientApiLeanPath.answeredCount;
    const refused = await overHttp(port, verifyFrom('198.51.100.7', user.id));
    expect(testApp.app.clientApiLeanPath.answeredCount).toBe(before + 1);
    expect(refused.statusCode).toBe(429);
    expect(JSON.parse(refused.body)).toEqual({
      success: false,
      code: 'RATE_LIMITED',
      message: 'Too many requests. Try again in 20 seconds.',
    });
    expect(refused.headers['retry-after']).toBe('20');
    const signed = `${String(refused.headers['x-signature-timestamp'])}..${refused.body}`;
    expect(
      verifyApplicationSignature(
        application.signingPublicKey,
        signed,
        Buffer.from(String(refused.headers['x-signature-ed25519']), 'hex'),
      ),
    ).toBe(true);
    // Fastify, for the same address (its proxy 127.0.0.1 forwarding it), answers the same.
    const viaFastify = await byInject(testApp, verifyFrom('198.51.100.7', user.id));
    expect(comparable(refused)).toEqual(comparable(viaFastify));
    // Another address behind the same proxy has a budget of its own.
    expect((await overHttp(port, verifyFrom('198.51.100.8', user.id))).statusCode).toBe(200);
  });

  it('takes the client address from X-Forwarded-For as Fastify does (TRUST_PROXY_HOPS=1)', async () => {
    // A client-made session token is proven by the address (and device) of the last login.
    const user = await insertAppUser(testApp.database.db, application.id, {
      lastLogin: clock.now(),
      lastLoginIp: '203.0.113.9',
    });
    const start = (forwardedFor: string, token: string) =>
      overHttp(port, {
        path: '/api/v1/session/track',
        headers: {
          'content-type': 'application/json',
          'x-api-key': application.apiKey,
          'x-forwarded-for': forwardedFor,
        },
        payload: JSON.stringify({ action: 'start', user_id: user.id, session_token: token }),
      });
    const before = testApp.app.clientApiLeanPath.answeredCount;
    const elsewhere = await start('198.51.100.1', `sess_${'e'.repeat(32)}_1`);
    expect(JSON.parse(elsewhere.body)).toMatchObject({ success: false, code: 'SESSION_INVALID' });
    // The nearest proxy's word is taken, not what the client wrote before it.
    const proven = await start('10.9.9.9, 203.0.113.9', `sess_${'f'.repeat(32)}_1`);
    expect(JSON.parse(proven.body)).toMatchObject({ success: true });
    expect(testApp.app.clientApiLeanPath.answeredCount).toBe(before + 2);
    const sessions = await testApp.database.db.select().from(appUserSessions);
    expect(sessions.map((session) => session.ipAddress)).toEqual(['203.0.113.9']);
  });

  it('times and counts its answers in the metrics, under their routes', async () => {
    const scrape = async () => {
      const response = await testApp.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      return parsePrometheusText(response.body);
    };
    const user = await insertAppUser(testApp.database.db, application.id, { isPaused: true });
    const before = await scrape();
    for (const address of ['192.0.2.1', '192.0.2.2']) {
      const answer = await overHttp(port, verifyFrom(address, user.id));
      expect(JSON.parse(answer.body)).toMatchObject({ code: 'ACCOUNT_DISABLED' });
    }
    const after = await scrape();
    const timed = (samples: typeof before) =>
      sampleValue(samples, 'latchkey_http_request_duration_seconds_count', {
        route: '/api/v1/verify',
        method: 'POST',
        status_class: '2xx',
      }) ?? 0;
    const counted = (samples: typeof before) =>
      sampleValue(samples, 'latchkey_client_api_responses_total', {
        route: '/api/v1/verify',
        code: 'ACCOUNT_DISABLED',
      }) ?? 0;
    expect(timed(after) - timed(before)).toBe(2);
    expect(counted(after) - counted(before)).toBe(2);
  });
});

describe('CLIENT_API_LEAN_PATH=false', () => {
  let testApp: TestApp;
  afterAll(() => testApp?.close());

  it('sends verify through Fastify even over a socket, with the same answer', async () => {
    testApp = await createTestApp({ env: { CLIENT_API_LEAN_PATH: 'false' } });
    const owner = await signInOwner(testApp.app);
    const application = await insertClientApplication(testApp, owner.accountId);
    const user = await insertAppUser(testApp.database.db, application.id);
    const port = await listen(testApp);
    for (let call = 0; call < 3; call += 1) {
      const answer = await overHttp(port, {
        path: '/api/v1/verify',
        headers: { 'content-type': 'application/json', 'x-api-key': application.apiKey },
        payload: JSON.stringify({ user_id: user.id }),
      });
      expect(JSON.parse(answer.body)).toMatchObject({ success: true, code: 'OK' });
    }
    expect(testApp.app.clientApiLeanPath.answeredCount).toBe(0);
  });
});
