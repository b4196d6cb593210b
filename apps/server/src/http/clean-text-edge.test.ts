import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientErrorResponseSchema, errorBodySchema } from '@latchkey/contracts';
import type { LightMyRequestResponse } from 'fastify';
import {
  callClientApi,
  createAppUserViaApi,
  createApplicationViaApi,
  insertClientApplication,
} from '../../test/factories.ts';
import {
  createTestApp,
  signInOwner,
  type SignedInOwner,
  type TestApp,
} from '../../test/test-app.ts';

/**
 * Text in is valid Unicode without NUL, checked at the edge: text with a lone surrogate or a NUL is a 400 before any schema
 * or verb sees it. Bodies are sent as raw JSON text, so the escapes reach the server exactly
 * as an attacker would write them.
 */
describe('clean text at the edge', () => {
  let testApp: TestApp;
  let owner: SignedInOwner;
  let apiKey: string;
  let applicationId: number;
  let appUserId: string;

  beforeAll(async () => {
    testApp = await createTestApp();
    owner = await signInOwner(testApp.app);
    apiKey = (await insertClientApplication(testApp, owner.accountId)).apiKey;
    applicationId = (await createApplicationViaApi(testApp.app, owner)).id;
    appUserId = (await createAppUserViaApi(testApp.app, owner, applicationId)).id;
  });
  afterAll(() => testApp.close());

  const LONE_SURROGATES = ['\\ud800', '\\uDFFF', 'a\\uDbFfb', '\\udc00\\ud800'];
  const NULS = ['\\u0000', 'a\\u0000b'];
  const BAD_ESCAPES = [...LONE_SURROGATES, ...NULS];

  /** A JSON object text whose `field` holds the raw escape sequence `escaped`. */
  const jsonWith = (fields: Record<string, string>, field: string, escaped: string) => {
    const others = Object.entries(fields)
      .filter(([name]) => name !== field)
      .map(([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value)}`);
    return `{${[...others, `${JSON.stringify(field)}:"${escaped}"`].join(',')}}`;
  };

  const expectV1InvalidRequest = (response: LightMyRequestResponse) => {
    expect(response.statusCode, response.body).toBe(400);
    const body = clientErrorResponseSchema.parse(response.json());
    expect(body.code).toBe('INVALID_REQUEST');
    expect(response.headers['x-signature-ed25519']).toMatch(/^[0-9a-f]{128}$/);
    return body.message;
  };

  const callV1Raw = (path: string, payload: string | Buffer) =>
    callClientApi(testApp.app, path, {
      apiKey,
      headers: { 'content-type': 'application/json' },
      body: payload,
    });

  it('refuses the reported login with a lone surrogate in hwid: 400, signed', async () => {
    const response = await callV1Raw('login', '{"username":"x","password":"y","hwid":"\\ud800"}');
    expect(expectV1InvalidRequest(response)).toBe(
      'hwid: text must be valid Unicode without NUL characters',
    );
  });

  it('refuses bad text in every client API field, and in unknown fields and keys', async () => {
    const cases: [string, Record<string, string>, string][] = [
      ['login', { username: 'x', password: 'y' }, 'hwid'],
      ['login', { username: 'x', password: 'y' }, 'version'],
      ['login', { username: 'x', password: 'y' }, 'username'],
      ['login', { username: 'x', password: 'y' }, 'password'],
      ['login', { username: 'x', password: 'y' }, 'api_key'],
      ['login', { username: 'x', password: 'y' }, 'unknown_field'],
      ['register', { username: 'x', password: 'long enough' }, 'username'],
      ['register', { username: 'x', password: 'long enough' }, 'password'],
      ['register', { username: 'x', password: 'long enough' }, 'email'],
      ['register', { username: 'x', password: 'long enough' }, 'hwid'],
      ['register', { username: 'x', password: 'long enough' }, 'expiresAt'],
      ['verify', {}, 'user_id'],
      ['session/track', { action: 'start', session_token: 'sess_x_1' }, 'user_id'],
      ['session/track', { action: 'start', user_id: appUserId }, 'session_token'],
      ['session/track', { action: 'heartbeat' }, 'session_token'],
      ['session/track', { action: 'end' }, 'session_token'],
    ];
    for (const [path, fields, field] of cases) {
      for (const escaped of BAD_ESCAPES) {
        const response = await callV1Raw(path, jsonWith(fields, field, escaped));
        expect(expectV1InvalidRequest(response), `${path} ${field} ${escaped}`).toBe(
          `${field}: text must be valid Unicode without NUL characters`,
        );
      }
    }
    const badKey = await callV1Raw('verify', '{"user_id":"x","k\\ud800":1}');
    expect(expectV1InvalidRequest(badKey)).toMatch(/^k\uFFFD: text must be valid Unicode/);
    const nested = await callV1Raw('verify', '{"user_id":"x","deep":[{"a":["\\u0000"]}]}');
    expect(expectV1InvalidRequest(nested)).toMatch(/^deep\.0\.a\.0: text must be valid/);
  });

  it('still accepts well-formed escapes: a surrogate pair and an escaped backslash', async () => {
    const response = await callV1Raw('verify', '{"user_id":"\\ud83d\\ude00 \\\\u0000"}');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ success: false, code: 'USER_NOT_FOUND' });
  });

  it('refuses a client body whose bytes are not UTF-8', async () => {
    for (const bytes of [
      Buffer.from([
        0x7b, 0x22, 0x75, 0x73, 0x65, 0x72, 0x5f, 0x69, 0x64, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d,
      ]),
      // A surrogate encoded as if it were a code point (CESU-8): not valid UTF-8.
      Buffer.concat([
        Buffer.from('{"user_id":"'),
        Buffer.from([0xed, 0xa0, 0x80]),
        Buffer.from('"}'),
      ]),
    ]) {
      expect(expectV1InvalidRequest(await callV1Raw('verify', bytes))).toBe(
        'Request body must be valid UTF-8',
      );
    }
  });

  const callOwnerRaw = (
    method: 'POST' | 'PUT' | 'GET' | 'DELETE',
    url: string,
    payload?: string | Buffer,
  ) =>
    testApp.app.inject({
      method,
      url,
      headers: { ...owner.headers, 'content-type': 'application/json' },
      ...(payload === undefined ? {} : { payload }),
    });

  const expectOwnerBadRequest = (response: LightMyRequestResponse) => {
    expect(response.statusCode, response.body).toBe(400);
    const body = errorBodySchema.parse(response.json());
    expect(body.code).toBe('BAD_REQUEST');
    return body.message;
  };

  it('refuses NUL and lone surrogates in owner text fields with a 400 naming the field', async () => {
    const users = `/api/applications/${applicationId}/users`;
    const cases: ['POST' | 'PUT', string, Record<string, string>, string][] = [
      ['POST', '/api/applications', {}, 'name'],
      ['POST', '/api/applications', { name: 'App' }, 'description'],
      ['PUT', `/api/applications/${applicationId}`, {}, 'name'],
      ['PUT', `/api/applications/${applicationId}`, {}, 'description'],
      ['PUT', `/api/applications/${applicationId}`, {}, 'version'],
      ...[
        'loginSuccessMessage',
        'loginFailedMessage',
        'accountDisabledMessage',
        'accountExpiredMessage',
        'versionMismatchMessage',
        'hwidMismatchMessage',
      ].map((field): ['PUT', string, Record<string, string>, string] => [
        'PUT',
        `/api/applications/${applicationId}`,
        {},
        field,
      ]),
      ['POST', '/api/blacklist', { type: 'hwid' }, 'value'],
      ['POST', '/api/blacklist', { type: 'hwid', value: 'HW-1' }, 'reason'],
      ['POST', users, { password: 'long enough' }, 'username'],
      ['POST', users, { username: 'someone', password: 'long enough' }, 'email'],
      ['POST', users, { username: 'someone', password: 'long enough' }, 'hwid'],
      ['POST', users, { username: 'someone' }, 'password'],
      ['PUT', `${users}/${appUserId}`, {}, 'username'],
      ['PUT', `${users}/${appUserId}`, {}, 'email'],
      ['PUT', `${users}/${appUserId}`, {}, 'hwid'],
      ['PUT', `${users}/${appUserId}`, {}, 'password'],
    ];
    for (const [method, url, fields, field] of cases) {
      for (const escaped of BAD_ESCAPES) {
        const response = await callOwnerRaw(method, url, jsonWith(fields, field, escaped));
        expect(expectOwnerBadRequest(response), `${method} ${url} ${field} ${escaped}`).toBe(
          `${field}: text must be valid Unicode without NUL characters`,
        );
      }
    }
  });

  it('answers the reported application name with a NUL with 400, and stores nothing', async () => {
    const before = await callOwnerRaw('GET', '/api/applications');
    const response = await callOwnerRaw('POST', '/api/applications', '{"name":"a\\u0000b"}');
    expect(expectOwnerBadRequest(response)).toBe(
      'name: text must be valid Unicode without NUL characters',
    );
    const after = await callOwnerRaw('GET', '/api/applications');
    expect(after.json()).toHaveLength((before.json() as unknown[]).length);
  });

  it('refuses owner bodies that are not UTF-8, and bad text in path and query', async () => {
    const notUtf8 = Buffer.concat([
      Buffer.from('{"name":"'),
      Buffer.from([0xc3]),
      Buffer.from('"}'),
    ]);
    expect(expectOwnerBadRequest(await callOwnerRaw('POST', '/api/applications', notUtf8))).toBe(
      'Request body must be valid UTF-8',
    );
    expect(
      expectOwnerBadRequest(await callOwnerRaw('GET', '/api/activity-logs?applicationId=1%00')),
    ).toBe('applicationId: text must be valid Unicode without NUL characters');
    expect(expectOwnerBadRequest(await callOwnerRaw('GET', '/api/activity-logs?a%00b=1'))).toMatch(
      /^a\uFFFDb: text must be valid Unicode/,
    );
    expect(expectOwnerBadRequest(await callOwnerRaw('DELETE', '/api/blacklist/1%00'))).toBe(
      'entryId: text must be valid Unicode without NUL characters',
    );
    const v1Query = await callClientApi(testApp.app, 'public-key?x=%00', { method: 'GET' });
    expect(expectV1InvalidRequest(v1Query)).toBe(
      'x: text must be valid Unicode without NUL characters',
    );
  });

  it('answers a path parameter that is not UTF-8, or too long, in the owner error shape', async () => {
    for (const [url, message] of [
      ['/api/blacklist/%FF', 'The URL is not valid percent-encoded UTF-8'],
      [
        `/api/applications/${applicationId}/users/%ED%A0%80`,
        'The URL is not valid percent-encoded UTF-8',
      ],
      [`/api/blacklist/${'9'.repeat(500)}`, 'A path parameter is too long'],
    ] as const) {
      expect(expectOwnerBadRequest(await callOwnerRaw('DELETE', url))).toBe(message);
    }
  });

  it('still accepts an application name with characters beyond the BMP', async () => {
    const response = await callOwnerRaw(
      'POST',
      '/api/applications',
      '{"name":"\\ud83d\\ude80 Rocket"}',
    );
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ name: '🚀 Rocket' });
  });
});
