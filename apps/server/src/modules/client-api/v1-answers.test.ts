import { createPrivateKey, createPublicKey } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { appVariables } from '../../db/schema/index.ts';
import { createManualClock } from '../../lib/clock.ts';
import { encryptSigningKey, verifyApplicationSignature } from '../../lib/signing-keys.ts';
import type { insertAppUser } from '../../../test/factories.ts';
import { insertApplication, insertAppUserWithPassword } from '../../../test/factories.ts';
import { sendOverHttp } from '../../../test/send-over-http.ts';
import { createTestApp, signInOwner, type TestApp } from '../../../test/test-app.ts';

/**
 * Every /api/v1 answer is byte-for-byte what it was for the same request and clock:
 * the lean v1 path may change how an answer is made, never what it is. The recorded answers
 * are in v1-answers.fixture.json; `UPDATE_V1_ANSWERS=1` rewrites them, which only a change to
 * the client API's documented behaviour may do.
 *
 * Everything that makes an answer is fixed: the clock, the server secret, the application's
 * API key and Ed25519 key (from a fixed seed), the end users' ids and the session tokens the
 * client sends. An answer that still holds something random (a session token the server makes,
 * a new user's id) has it replaced by a placeholder, and its signature is then checked against
 * the public key instead of compared.
 */

const FIXTURE = new URL('./v1-answers.fixture.json', import.meta.url);
const isUpdating = process.env.UPDATE_V1_ANSWERS === '1';

const SERVER_SECRET = 'v1-answers-test-secret-that-is-long-enough';
const API_KEY = `lk_live_${'G'.repeat(40)}old`;
const PASSWORD = 'golden password';
const NOW = new Date('2026-06-01T12:00:00.250Z');
/** An Ed25519 private key from a fixed 32-byte seed (PKCS#8 DER: fixed prefix + seed). */
const SIGNING_KEY = createPrivateKey({
  key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.alloc(32, 7)]),
  format: 'der',
  type: 'pkcs8',
});
const SIGNING_PUBLIC_KEY = Buffer.from(
  createPublicKey(SIGNING_KEY).export({ format: 'jwk' }).x!,
  'base64url',
).toString('hex');

const USERS = {
  alice: '00000000-0000-4000-8000-00000000a11c',
  paused: '00000000-0000-4000-8000-0000000000b0',
  expired: '00000000-0000-4000-8000-0000000000e0',
  locked: '00000000-0000-4000-8000-00000000010c',
} as const;
const token = (n: number) =>
  `sess_${String(n).padStart(32, 'c')}_${Math.floor(NOW.getTime() / 1000)}`;

interface Call {
  name: string;
  method?: 'GET' | 'POST' | 'PUT';
  path: string;
  apiKey?: string | null;
  nonce?: string;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string as it is. */
  body?: unknown;
}

/** The requests, in order (some depend on earlier ones: a session started, then tracked). */
const CALLS: Call[] = [
  { name: 'public key', method: 'GET', path: 'public-key', apiKey: null },
  { name: 'verify', path: 'verify', body: { user_id: USERS.alice } },
  { name: 'verify with a nonce', path: 'verify', nonce: 'n0nce-1', body: { user_id: USERS.alice } },
  { name: 'verify, unknown user', path: 'verify', body: { user_id: 'nobody' } },
  { name: 'verify, paused', path: 'verify', body: { user_id: USERS.paused } },
  { name: 'verify, expired', path: 'verify', body: { user_id: USERS.expired } },
  {
    name: 'verify, entitlements missing',
    path: 'verify',
    body: { user_id: USERS.alice, entitlements: ['PRO'] },
  },
  { name: 'verify, extra field', path: 'verify', body: { user_id: USERS.alice, extra: 1 } },
  { name: 'verify, no user_id', path: 'verify', body: {} },
  { name: 'verify, user_id a number', path: 'verify', body: { user_id: 42 } },
  { name: 'verify, user_id too long', path: 'verify', body: { user_id: 'x'.repeat(400) } },
  {
    name: 'verify, entitlements not an array',
    path: 'verify',
    body: { user_id: USERS.alice, entitlements: 'PRO' },
  },
  { name: 'verify, empty body', path: 'verify', body: '' },
  { name: 'verify, no body', path: 'verify' },
  {
    name: 'verify, malformed JSON',
    path: 'verify',
    headers: { 'content-type': 'application/json' },
    body: '{"user_id":',
  },
  {
    name: 'verify, NUL escape',
    path: 'verify',
    headers: { 'content-type': 'application/json' },
    body: '{"user_id":"a\\u0000b"}',
  },
  {
    name: 'verify, text/plain',
    path: 'verify',
    headers: { 'content-type': 'text/plain' },
    body: 'user_id=1',
  },
  { name: 'verify, NUL in the query', path: 'verify?x=%00', body: { user_id: USERS.alice } },
  {
    name: 'verify, NUL in the query and malformed JSON',
    path: 'verify?x=%00',
    headers: { 'content-type': 'application/json' },
    body: '{"user_id":',
  },
  {
    name: 'verify, NUL in text/plain',
    path: 'verify',
    headers: { 'content-type': 'text/plain' },
    body: 'user\u0000id',
  },
  { name: 'unknown path, NUL in the query', path: 'no-such-call?x=%00', body: {} },
  { name: 'public key, NUL in the query', method: 'GET', path: 'public-key?x=%00', apiKey: null },
  { name: 'verify, a query string', path: 'verify?x=1', body: { user_id: USERS.alice } },
  { name: 'verify, no API key', path: 'verify', apiKey: null, body: { user_id: USERS.alice } },
  {
    name: 'verify, unknown API key',
    path: 'verify',
    apiKey: `lk_live_${'Z'.repeat(43)}`,
    body: { user_id: USERS.alice },
  },
  {
    name: 'verify, malformed API key',
    path: 'verify',
    apiKey: 'not-a-key',
    body: { user_id: USERS.alice },
  },
  {
    name: 'verify, bad nonce',
    path: 'verify',
    nonce: 'bad nonce with spaces',
    body: { user_id: USERS.alice },
  },
  { name: 'verify, GET', method: 'GET', path: 'verify' },
  { name: 'unknown path', path: 'no-such-call', body: {} },
  { name: 'unknown path, no key', path: 'no-such-call', apiKey: null, body: {} },
  {
    name: 'verify, oversized body',
    path: 'verify',
    body: { user_id: USERS.alice, pad: 'p'.repeat(70_000) },
  },
  {
    name: 'login',
    path: 'login',
    body: { username: 'golden_alice', password: PASSWORD, version: '1.0.0', hwid: 'PC-ALICE' },
  },
  {
    name: 'heartbeat start',
    path: 'session/track',
    body: { action: 'start', user_id: USERS.alice, session_token: token(1) },
  },
  {
    name: 'heartbeat',
    path: 'session/track',
    body: { action: 'heartbeat', session_token: token(1) },
  },
  {
    name: 'heartbeat, unknown session',
    path: 'session/track',
    body: { action: 'heartbeat', session_token: token(2) },
  },
  {
    name: 'heartbeat, bad action',
    path: 'session/track',
    body: { action: 'dance', session_token: token(1) },
  },
  { name: 'heartbeat, no token', path: 'session/track', body: { action: 'heartbeat' } },
  { name: 'variable', path: 'var', body: { name: 'welcome', session_token: token(1) } },
  { name: 'variable, unknown', path: 'var', body: { name: 'nope', session_token: token(1) } },
  {
    name: 'variable needing a session, none',
    path: 'var',
    body: { name: 'kill_switch', session_token: token(2) },
  },
  {
    name: 'offline licence checkout',
    path: 'license/checkout',
    body: { session_token: token(1), ttl_seconds: 7200 },
  },
  {
    name: 'heartbeat end',
    path: 'session/track',
    body: { action: 'end', session_token: token(1) },
  },
  {
    name: 'heartbeat after the end',
    path: 'session/track',
    body: { action: 'heartbeat', session_token: token(1) },
  },
  {
    name: 'login, wrong password',
    path: 'login',
    body: { username: 'golden_alice', password: 'wrong', version: '1.0.0', hwid: 'PC-ALICE' },
  },
  {
    name: 'login, unknown user',
    path: 'login',
    body: { username: 'nobody_here', password: PASSWORD, version: '1.0.0' },
  },
  {
    name: 'login, old version',
    path: 'login',
    body: { username: 'golden_alice', password: PASSWORD, version: '0.9.0', hwid: 'PC-ALICE' },
  },
  {
    name: 'login, paused',
    path: 'login',
    body: { username: 'golden_paused', password: PASSWORD, version: '1.0.0' },
  },
  {
    name: 'login, another machine',
    path: 'login',
    body: { username: 'golden_locked', password: PASSWORD, version: '1.0.0', hwid: 'PC-OTHER' },
  },
  {
    name: 'login, api_key in the body',
    path: 'login',
    apiKey: null,
    body: { username: 'golden_alice', password: 'wrong', version: '1.0.0', api_key: API_KEY },
  },
  { name: 'login, no password', path: 'login', body: { username: 'golden_alice' } },
  {
    name: 'register',
    path: 'register',
    body: { username: 'golden_new', password: 'a long enough password', email: 'n@example.com' },
  },
  {
    name: 'register, taken',
    path: 'register',
    body: { username: 'golden_alice', password: 'a long enough password' },
  },
  {
    name: 'register, short password',
    path: 'register',
    body: { username: 'golden_short', password: 'x' },
  },
  {
    name: 'licence login, unknown key',
    path: 'license/login',
    body: { license_key: 'AAAA-BBBB-CCCC-DDDD' },
  },
  {
    name: 'device reset, not allowed',
    path: 'devices/reset',
    body: { username: 'golden_locked', password: PASSWORD, all: true },
  },
  {
    name: 'user variable, no session',
    path: 'user-var',
    body: { name: 'note', session_token: token(3) },
  },
  {
    name: 'file, no session',
    path: 'file',
    body: { file_id: USERS.alice, session_token: token(3) },
  },
];

/** What is recorded of an answer: everything a client can see of it but the request id. */
interface RecordedAnswer {
  name: string;
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Set when something random in the body was replaced: the signature was verified instead. */
  normalized?: true;
}

const RECORDED_HEADERS = [
  'content-type',
  'content-length',
  'retry-after',
  'x-signature-ed25519',
  'x-signature-timestamp',
];

/** Random values a server made (its session tokens, a new user's id), in order of appearance. */
function normalize(body: string, knownIds: readonly string[]): string {
  const seen = new Map<string, string>();
  const placeholder = (kind: string) => (value: string) => {
    if (knownIds.includes(value)) return value;
    if (!seen.has(value)) seen.set(value, `<${kind} ${seen.size + 1}>`);
    return seen.get(value)!;
  };
  return body
    .replace(
      // An offline licence holds a random id: its payload is shown decoded, ids replaced.
      /LK1\.([\w-]+)\.[\w-]+/g,
      (_licence, payload: string) =>
        `LK1 ${Buffer.from(payload, 'base64url').toString('utf8').replaceAll('"', "'")} <signature>`,
    )
    .replace(/sess_[0-9a-f]{32}_\d+/g, placeholder('session token'))
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, placeholder('id'));
}

/** What a transport gives back for one call. */
interface SentAnswer {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

/** The same request through Fastify's `inject`, which never meets the lean path. */
const sendByInject =
  (app: TestApp['app']) =>
  async (request: HttpCall): Promise<SentAnswer> => {
    const response: LightMyRequestResponse = await app.inject({
      method: request.method,
      url: request.path,
      remoteAddress: '127.0.0.2',
      headers: request.headers,
      ...(request.payload === undefined ? {} : { payload: request.payload }),
    });
    return { statusCode: response.statusCode, headers: response.headers, body: response.body };
  };

/** The same request over a socket: verify and heartbeat are then answered by the lean path. */
const sendBySocket = (port: number) => (request: HttpCall) => sendOverHttp(port, request);

interface HttpCall {
  method: string;
  path: string;
  headers: Record<string, string>;
  payload: string | undefined;
}

/**
 * Both ways of reaching the server answer every call exactly as recorded: `inject` through
 * Fastify, and a real socket, where the lean path (lean-client-path.ts) takes the verify and
 * heartbeat calls it can answer and hands the rest to Fastify. Each way has a fresh server.
 */
describe.each(['inject', 'http'] as const)('/api/v1 answers, byte for byte (%s)', (transport) => {
  let testApp: TestApp;
  const clock = createManualClock(NOW);
  const answers: RecordedAnswer[] = [];

  beforeAll(async () => {
    testApp = await createTestApp({
      clock,
      env: { SERVER_SECRET, BODY_LIMIT_BYTES: '65536' },
    });
    const owner = await signInOwner(testApp.app);
    const { db } = testApp.database;
    const application = await insertApplication(db, owner.accountId, {
      name: 'Golden',
      apiKey: API_KEY,
      signingPublicKey: SIGNING_PUBLIC_KEY,
      signingPrivateKeyEncrypted: encryptSigningKey(SIGNING_KEY, SIGNING_PUBLIC_KEY, SERVER_SECRET),
      hwidLockEnabled: true,
    });
    const user = (username: string, id: string, more: Parameters<typeof insertAppUser>[2] = {}) =>
      insertAppUserWithPassword(db, application.id, PASSWORD, { id, username, ...more });
    await user('golden_alice', USERS.alice);
    await user('golden_paused', USERS.paused, { isPaused: true });
    await user('golden_expired', USERS.expired, { expiresAt: new Date('2026-01-01T00:00:00Z') });
    await user('golden_locked', USERS.locked, { hwid: 'PC-LOCKED' });
    await db.insert(appVariables).values([
      {
        applicationId: application.id,
        name: 'welcome',
        value: 'Hello, world',
        requiresSession: false,
      },
      { applicationId: application.id, name: 'kill_switch', value: 'off', requiresSession: true },
    ]);

    let send = sendByInject(testApp.app);
    if (transport === 'http') {
      await testApp.app.listen({ host: '127.0.0.1', port: 0 });
      send = sendBySocket((testApp.app.server.address() as AddressInfo).port);
    }
    for (const call of CALLS) {
      const headers: Record<string, string> = {
        ...(typeof call.body === 'object' ? { 'content-type': 'application/json' } : {}),
        ...call.headers,
      };
      if (call.apiKey !== null) headers['x-api-key'] = call.apiKey ?? API_KEY;
      if (call.nonce !== undefined) headers['x-request-nonce'] = call.nonce;
      const response = await send({
        method: call.method ?? 'POST',
        path: `/api/v1/${call.path}`,
        headers,
        payload:
          call.body === undefined
            ? undefined
            : typeof call.body === 'string'
              ? call.body
              : JSON.stringify(call.body),
      });
      const recordedHeaders: Record<string, string> = {};
      for (const name of RECORDED_HEADERS) {
        const value = response.headers[name];
        if (value !== undefined) recordedHeaders[name] = String(value);
      }
      const body = normalize(response.body, [
        ...Object.values(USERS),
        token(1),
        token(2),
        token(3),
      ]);
      const answer: RecordedAnswer = {
        name: call.name,
        status: response.statusCode,
        headers: recordedHeaders,
        body,
      };
      if (body !== response.body) {
        answer.normalized = true;
        const signature = recordedHeaders['x-signature-ed25519'] ?? '';
        delete answer.headers['x-signature-ed25519'];
        // A random value changes the length too: only its presence is recorded.
        delete answer.headers['content-length'];
        const message = `${recordedHeaders['x-signature-timestamp']}.${call.nonce ?? ''}.${response.body}`;
        expect(
          verifyApplicationSignature(SIGNING_PUBLIC_KEY, message, Buffer.from(signature, 'hex')),
          `${call.name}: signed with the application's key`,
        ).toBe(true);
      }
      answers.push(answer);
    }
    if (isUpdating && transport === 'inject') {
      writeFileSync(FIXTURE, `${JSON.stringify(answers, null, 2)}\n`);
    }
  });
  afterAll(() => testApp?.close());

  it('has a recorded answer for every call, and no recorded answer without a call', () => {
    expect(existsSync(FIXTURE), 'v1-answers.fixture.json (UPDATE_V1_ANSWERS=1 writes it)').toBe(
      true,
    );
    const recorded = JSON.parse(readFileSync(FIXTURE, 'utf8')) as RecordedAnswer[];
    expect(recorded.map((answer) => answer.name)).toEqual(CALLS.map((call) => call.name));
  });

  it('answers the calls the lean path can take there, and only over a socket', () => {
    // Verify and heartbeat with a JSON body, a cached key and no query string; not the first
    // verify (its key is not cached yet) nor those refused before any body is read.
    const leanCalls = CALLS.filter((call) => LEAN_CALL_NAMES.includes(call.name));
    expect(leanCalls).toHaveLength(LEAN_CALL_NAMES.length);
    expect(testApp.app.clientApiLeanPath.answeredCount).toBe(
      transport === 'http' ? LEAN_CALL_NAMES.length : 0,
    );
  });

  it.each(CALLS.map((call, index) => [call.name, index] as const))('%s', (_name, index) => {
    const recorded = JSON.parse(readFileSync(FIXTURE, 'utf8')) as RecordedAnswer[];
    expect(answers[index]).toEqual(recorded[index]);
  });
});

/** The calls the lean path answers over a socket (every other call goes to Fastify). */
const LEAN_CALL_NAMES = [
  'verify with a nonce',
  'verify, unknown user',
  'verify, paused',
  'verify, expired',
  'verify, entitlements missing',
  'verify, extra field',
  'verify, no user_id',
  'verify, user_id a number',
  'verify, user_id too long',
  'verify, entitlements not an array',
  'verify, malformed JSON',
  'verify, NUL escape',
  'heartbeat start',
  'heartbeat',
  'heartbeat, unknown session',
  'heartbeat, bad action',
  'heartbeat, no token',
  'heartbeat end',
  'heartbeat after the end',
];
