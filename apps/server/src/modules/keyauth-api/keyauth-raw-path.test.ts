import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { applicationSchema, type Application } from '@latchkey/contracts';
import { createManualClock } from '../../lib/clock.ts';
import { createApplicationViaApi, insertAppUserWithPassword } from '../../../test/factories.ts';
import { sendOverHttp } from '../../../test/send-over-http.ts';
import { createTestApp, signInOwner, type TestApp } from '../../../test/test-app.ts';

const PASSWORD = 'correct horse battery staple';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/**
 * KeyAuth's form POSTs are answered in front of Fastify (keyauth-raw-path.ts) when they reach
 * the server over a socket; `inject` always goes through Fastify's routes. Sending one request
 * both ways shows the two answer alike: the same status, headers and bytes (a success's random
 * nonce aside, which makes its 1.2 signature differ; 1.3's timestamp is the test clock's).
 */
describe('KeyAuth requests answered in front of Fastify answer as Fastify does', () => {
  let testApp: TestApp;
  let port: number;
  let application: Application;
  let sessionid = '';
  const clock = createManualClock(new Date('2026-06-01T12:00:00Z'));

  beforeAll(async () => {
    testApp = await createTestApp({ clock, env: { CLIENT_API_IP_LIMIT_PER_MINUTE: '1000000' } });
    const owner = await signInOwner(testApp.app);
    const created = await createApplicationViaApi(testApp.app, owner);
    application = applicationSchema.parse(
      (
        await testApp.app.inject({
          method: 'PUT',
          url: `/api/applications/${created.id}`,
          headers: owner.headers,
          payload: { keyauthCompatibility: true },
        })
      ).json(),
    );
    await testApp.app.listen({ host: '127.0.0.1', port: 0 });
    port = (testApp.app.server.address() as AddressInfo).port;
    const user = await insertAppUserWithPassword(testApp.database.db, application.id, PASSWORD);
    const form = (fields: Record<string, string>) =>
      new URLSearchParams({
        ...fields,
        name: application.keyauthName!,
        ownerid: application.keyauthOwnerId!,
      }).toString();
    const init = await sendOverHttp(port, {
      method: 'POST',
      path: '/api/1.2/',
      headers: FORM,
      payload: form({ type: 'init', ver: '1.0.0', enckey: 'e'.repeat(64) }),
    });
    sessionid = (JSON.parse(init.body) as { sessionid: string }).sessionid;
    const login = await sendOverHttp(port, {
      method: 'POST',
      path: '/api/1.2/',
      headers: FORM,
      payload: form({ type: 'login', sessionid, username: user.username, pass: PASSWORD }),
    });
    expect(JSON.parse(login.body)).toMatchObject({ success: true, code: 68 });
  });
  afterAll(() => testApp?.close());

  const comparable = (answer: {
    statusCode: number;
    headers: Record<string, unknown>;
    body: string;
  }) => {
    const parsed =
      answer.body === 'KeyAuth_Invalid' ? answer.body : (JSON.parse(answer.body) as object);
    const isSuccess = typeof parsed === 'object' && (parsed as { success?: boolean }).success;
    if (typeof parsed === 'object') delete (parsed as { nonce?: string }).nonce;
    return {
      statusCode: answer.statusCode,
      body: parsed,
      headers: Object.fromEntries(
        [
          'content-type',
          'x-signature-timestamp',
          ...(isSuccess ? [] : ['signature', 'x-signature-ed25519']),
        ]
          .filter((name) => answer.headers[name] !== undefined)
          .map((name) => [name, String(answer.headers[name])]),
      ),
    };
  };

  it('for each request type, a refusal, an unknown application and malformed fields', async () => {
    const before = testApp.app.keyauthRawPath!.answeredCount;
    const requests: Record<string, string>[] = [
      { type: 'check', sessionid: '__session__' },
      { type: 'fetchStats', sessionid: '__session__' },
      { type: 'var', varid: 'missing', sessionid: '__session__' },
      { type: 'getvar', var: 'missing', sessionid: '__session__' },
      { type: 'checkblacklist', hwid: 'nobody', sessionid: '__session__' },
      { type: 'chatget', sessionid: '__session__' },
      { type: 'nonsense', sessionid: '__session__' },
      { type: 'check', sessionid: 'AAAAAAAAAA' },
      { type: 'init', ver: '0.0.1' },
      { type: 'log', sessionid: '__session__', message: '' },
      { type: 'login', sessionid: '__session__', username: 'nobody', pass: 'x' },
      { type: 'check', sessionid: 'a\u0000b' },
      { type: 'check', ownerid: 'ZZZZZZZZZZ' },
      { type: 'check', name: '' },
    ];
    for (const version of ['1.2', '1.3']) {
      for (const fields of requests) {
        const payload = new URLSearchParams({
          name: application.keyauthName!,
          ownerid: application.keyauthOwnerId!,
          ...fields,
          ...(fields.sessionid === '__session__' ? { sessionid } : {}),
        }).toString();
        const raw = await sendOverHttp(port, {
          method: 'POST',
          path: `/api/${version}/`,
          headers: FORM,
          payload,
        });
        const routed = await testApp.app.inject({
          method: 'POST',
          url: `/api/${version}/`,
          headers: FORM,
          payload,
        });
        expect(comparable(raw), `${version} ${payload}`).toEqual(
          comparable({ statusCode: routed.statusCode, headers: routed.headers, body: routed.body }),
        );
      }
    }
    expect(testApp.app.keyauthRawPath!.answeredCount - before).toBe(requests.length * 2);
  });

  it('leaves a query string, another content type and an empty body to Fastify', async () => {
    const before = testApp.app.keyauthRawPath!.answeredCount;
    const query = new URLSearchParams({
      type: 'check',
      sessionid,
      name: application.keyauthName!,
      ownerid: application.keyauthOwnerId!,
    }).toString();
    const answers = [
      await sendOverHttp(port, { method: 'GET', path: `/api/1.3/?${query}`, headers: {} }),
      await sendOverHttp(port, {
        method: 'POST',
        path: `/api/1.3/?${query}`,
        headers: FORM,
        payload: 'x=1',
      }),
      await sendOverHttp(port, {
        method: 'POST',
        path: '/api/1.3/',
        headers: { 'content-type': 'text/plain' },
        payload: query,
      }),
    ];
    for (const answer of answers) {
      expect(JSON.parse(answer.body)).toMatchObject({
        success: true,
        message: 'Session is validated.',
      });
    }
    expect(testApp.app.keyauthRawPath!.answeredCount).toBe(before);
  });
});
