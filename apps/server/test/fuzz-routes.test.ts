import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  clientErrorResponseSchema,
  portalParamsSchema,
  sdkPackageFileParamsSchema,
  errorBodySchema,
  problemSchema,
} from '@latchkey/contracts';
import { sql } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { JSON_BODY_TOO_DEEP } from '../src/http/accept-empty-json-bodies.ts';
import {
  createAppUserViaApi,
  createApiTokenViaApi,
  createApplicationViaApi,
  createPlanViaApi,
  createWebhookViaApi,
  insertWebhookDelivery,
} from './factories.ts';
import { routeContracts } from '../src/route-table.ts';
import { createTestApp, signInOwner, type SignedInOwner, type TestApp } from './test-app.ts';

/**
 * Generated bad input for every route of the real app: no input may cause a 5xx,
 * and every 4xx has the documented shape. Each route is fuzzed from the zod schemas it
 * parses, listed here by hand; a route registered without an entry fails the first test, so
 * a new route must be added to the map (and so to the fuzzing).
 */
type Caller = 'owner' | 'client' | 'public' | 'portal' | 'manage';
interface RouteSchemas {
  caller: Caller;
  /** 'problem': its errors are problem details. */
  errorBody?: 'problem';
  body?: z.ZodType;
  params?: z.ZodType;
  query?: z.ZodType;
}

/**
 * What each route parses, read from its contract in the route table (its definition, where a
 * route's schemas are declared once). A raw-bytes body (a file or export upload) is fuzzed as
 * bytes, not from a schema. Two pages are served outside the API's contracts and added here.
 */
const routeSchemas: Record<string, RouteSchemas> = {
  ...Object.fromEntries(
    Object.entries(routeContracts).map(([route, contract]): [string, RouteSchemas] => [
      route,
      {
        caller: contract.caller,
        ...(contract.errorBody ? { errorBody: contract.errorBody } : {}),
        ...(contract.params ? { params: contract.params } : {}),
        ...(contract.query ? { query: contract.query } : {}),
        ...(contract.body && !contract.bodyMediaType ? { body: contract.body } : {}),
      },
    ]),
  ),
  // Prometheus's scrape: behind METRICS_TOKEN below, so every fuzzed call is a 401.
  'GET /metrics': { caller: 'public' },
  // The portal's page (portal.html), before any sign-in, at both of its addresses.
  'GET /portal/:publicId': { caller: 'public', params: portalParamsSchema },
  'GET /portal/:publicId/': { caller: 'public', params: portalParamsSchema },
  // The page a mailed "choose a new password" link opens.
  'GET /portal/:publicId/reset': { caller: 'public', params: portalParamsSchema },
  // The page a mailed "confirm your address" link opens.
  'GET /portal/:publicId/verify': { caller: 'public', params: portalParamsSchema },
  // The page a reminder's "stop these reminders" link opens.
  'GET /portal/:publicId/unsubscribe': { caller: 'public', params: portalParamsSchema },
  // The client SDK packages this server serves, and their list.
  'GET /sdk/index.json': { caller: 'public' },
  'GET /sdk/:file': { caller: 'public', params: sdkPackageFileParamsSchema },
};

/**
 * The KeyAuth-compatible API takes form fields any request type may ignore, and answers every
 * outcome as an HTTP 200 in KeyAuth's shapes: modules/keyauth-api/keyauth-fuzz.test.ts fuzzes
 * its form bodies and query strings with a live session mixed in.
 */
const fuzzedElsewhere = new Set(
  ['1.2', '1.3'].flatMap((version) => [`GET /api/${version}/`, `POST /api/${version}/`]),
);

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS_PER_ROUTE ?? 160);
const PASSWORD = 'correct horse battery staple';

interface JsonSchemaNode {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  format?: string;
  properties?: Record<string, JsonSchemaNode>;
  anyOf?: JsonSchemaNode[];
  oneOf?: JsonSchemaNode[];
}

/** The object shapes a body schema accepts: one per branch of a union. */
function objectShapesOf(schema: z.ZodType): Record<string, JsonSchemaNode>[] {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchemaNode;
  const branches = json.anyOf ?? json.oneOf ?? [json];
  return branches.map((branch) => branch.properties ?? {});
}

/** A plausible value for a field, so that mutating one field leaves the others valid. */
function sampleFor(name: string, node: JsonSchemaNode, known: Record<string, unknown>): unknown {
  if (node.const !== undefined) return node.const;
  if (node.enum && node.enum.length > 0) return node.enum[0];
  if (name in known) return known[name];
  const choices = node.anyOf ?? node.oneOf;
  if (choices) {
    const nonNull = choices.find((choice) => choice.type !== 'null');
    if (nonNull) return sampleFor(name, nonNull, known);
  }
  const type = Array.isArray(node.type) ? node.type[0] : node.type;
  if (node.format === 'email') return 'fuzz@example.com';
  if (node.format === 'date-time') return '2030-01-01T00:00:00Z';
  if (type === 'boolean') return true;
  if (type === 'number' || type === 'integer') return 1;
  return 'fuzz';
}

/** Builds each URL segment from UTF-8 bytes, so any string (even a lone surrogate) can be sent. */
const encodeSegment = (value: string) =>
  [...Buffer.from(value, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');

const loneSurrogate = fc.constantFrom('\ud800', '\udfff', 'a\udbffb', '\udc00\ud800');
const withInside = (inside: fc.Arbitrary<string>) =>
  fc.tuple(fc.string(), inside, fc.string()).map(([before, bad, after]) => before + bad + after);
const badString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  withInside(loneSurrogate),
  withInside(fc.constant('\u0000')),
  fc.integer({ min: 100, max: 70_000 }).map((length) => 'x'.repeat(length)),
  fc.constantFrom(
    '',
    ' ',
    '\t\n',
    '\u202e\ufeff',
    "' OR 1=1 --",
    '__proto__',
    'constructor',
    '%00',
    '../../etc/passwd',
    'null',
    '1e400',
    '-1',
    '0',
    '99999999999999999999',
    '00000000-0000-0000-0000-000000000000',
    'sess_' + 'a'.repeat(40) + '_1',
  ),
);
const hugeNumber = fc.constantFrom(
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER + 2,
  2 ** 31,
  -(2 ** 63),
  5e-324,
  0.5,
  -0,
);
const deepArray = fc
  .integer({ min: 1, max: 3000 })
  .map((depth) => JSON.parse('['.repeat(depth) + ']'.repeat(depth)) as unknown);
const badValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  badString,
  hugeNumber,
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.dictionary(badString, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 }),
  deepArray,
);
const badKey = fc.oneof(badString, fc.constantFrom('__proto__', 'constructor', 'prototype'));

/**
 * JSON text nesting `depth` objects, arrays or both inside each other around one value,
 * built as text: JSON.stringify of such a value would overflow the stack first.
 */
function nestedJsonText(depth: number, shape: 'object' | 'array' | 'mixed'): string {
  if (shape === 'object') return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  if (shape === 'array') return `${'['.repeat(depth)}1${']'.repeat(depth)}`;
  const pairs = Math.ceil(depth / 2);
  return `${'[{"a":'.repeat(pairs)}1${'}]'.repeat(pairs)}`;
}

/**
 * A field of an otherwise valid body nested deep: around the limit the server reads bodies to
 * (JSON_BODY_MAX_DEPTH, 32) and far past it, up to what fits under the size limit.
 */
const deepNesting = fc
  .tuple(
    fc.oneof(fc.integer({ min: 28, max: 36 }), fc.integer({ min: 37, max: 10_000 })),
    fc.constantFrom('object' as const, 'array' as const, 'mixed' as const),
  )
  .map(([depth, shape]) => nestedJsonText(depth, shape));

function deepNestingBody(
  base: fc.Arbitrary<Record<string, unknown>>,
  field: fc.Arbitrary<string>,
): fc.Arbitrary<Pick<FuzzRequest, 'label' | 'headers' | 'payload'>> {
  return fc
    .tuple(base, fc.oneof(field, fc.constant('nested')), deepNesting)
    .map(([body, name, nested]) => ({
      label: 'deep nesting in a field',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ ...body, [name]: 'X' }).replace('"X"', nested),
    }));
}

interface FuzzRequest {
  label: string;
  method: InjectOptions['method'];
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer | Record<string, unknown> | unknown[];
}

interface Fixtures {
  owner: SignedInOwner;
  /** Another account of the site, the target of the admin routes. */
  otherAccountId: string;
  apiKey: string;
  applicationId: number;
  appUserId: string;
  username: string;
  planId: string;
  blacklistEntryId: number;
  webhookId: number;
  deliveryId: string;
  /** A kept version of the owner's authentication.ts (the code editor's history). */
  codeFileVersionId: string;
  /** A file of the application and a download token of it. */
  fileId: string;
  downloadToken: string;
  /** The application's portal, on, and its end user's portal cookie. */
  portalPublicId: string;
  portalCookie: string;
  /** An application variable. */
  variableId: string;
  /** A management API token with every scope, and another token the DELETE route revokes. */
  manageToken: string;
  apiTokenId: string;
}

function bodyArbitrary(
  schema: z.ZodType,
  known: Record<string, unknown>,
): fc.Arbitrary<Pick<FuzzRequest, 'label' | 'headers' | 'payload'>> {
  const bases = objectShapesOf(schema).map((shape) =>
    Object.fromEntries(
      Object.entries(shape).map(([name, node]) => [name, sampleFor(name, node, known)]),
    ),
  );
  const fieldNames = [...new Set(bases.flatMap((base) => Object.keys(base)))];
  const base = fc.constantFrom(...bases);
  const field = fieldNames.length > 0 ? fc.constantFrom(...fieldNames) : fc.constant('field');
  const json = (label: string, payload: unknown) => ({
    label,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });
  const raw = (label: string, contentType: string | null, payload: string | Buffer) => ({
    label,
    headers: (contentType === null ? {} : { 'content-type': contentType }) as Record<
      string,
      string
    >,
    payload,
  });
  return fc.oneof(
    { weight: 6, arbitrary: base.map((body) => json('valid', body)) },
    {
      weight: 20,
      arbitrary: fc
        .tuple(base, fc.array(fc.tuple(field, badValue), { minLength: 1, maxLength: 3 }))
        .map(([body, changes]) =>
          json('fields replaced', { ...body, ...Object.fromEntries(changes) }),
        ),
    },
    {
      weight: 6,
      arbitrary: fc
        .tuple(base, fc.subarray(fieldNames))
        .map(([body, removed]) =>
          json(
            'fields missing',
            Object.fromEntries(Object.entries(body).filter(([name]) => !removed.includes(name))),
          ),
        ),
    },
    {
      weight: 6,
      arbitrary: fc
        .tuple(base, fc.array(fc.tuple(badKey, badValue), { minLength: 1, maxLength: 4 }))
        .map(([body, extra]) => {
          const payload: Record<string, unknown> = { ...body };
          // defineProperty, so "__proto__" becomes a key of the JSON text, as an attacker sends it.
          for (const [key, value] of extra) {
            Object.defineProperty(payload, key, { value, enumerable: true, writable: true });
          }
          return json('unknown fields', payload);
        }),
    },
    {
      weight: 6,
      arbitrary: fc
        .tuple(base, field, fc.constantFrom('\\ud800', '\\uDC00', '\\u0000', 'a\\u0000\\udbff'))
        .map(([body, name, escape]) => {
          const text = JSON.stringify({ ...body, [name]: 'X' }).replace('"X"', `"${escape}"`);
          return raw('raw escape', 'application/json', text);
        }),
    },
    {
      weight: 3,
      arbitrary: fc
        .tuple(
          base,
          field,
          fc.constantFrom('1e400', '-1e400', '123456789012345678901234567890', '0e-999'),
        )
        .map(([body, name, number]) =>
          raw(
            'raw huge number',
            'application/json',
            JSON.stringify({ ...body, [name]: 'X' }).replace('"X"', number),
          ),
        ),
    },
    {
      weight: 4,
      arbitrary: fc.tuple(base, fc.nat()).map(([body, cut]) => {
        const text = JSON.stringify(body);
        return raw(
          'truncated JSON',
          'application/json',
          text.slice(0, cut % Math.max(1, text.length)),
        );
      }),
    },
    {
      weight: 3,
      arbitrary: fc.string().map((text) => raw('malformed JSON', 'application/json', text)),
    },
    {
      weight: 3,
      arbitrary: fc
        .uint8Array({ minLength: 1, maxLength: 64 })
        .map((bytes) => raw('arbitrary bytes', 'application/json', Buffer.from(bytes))),
    },
    {
      weight: 2,
      arbitrary: fc
        .integer({ min: 1, max: 20_000 })
        .map((depth) =>
          raw('deep nesting', 'application/json', '['.repeat(depth) + ']'.repeat(depth)),
        ),
    },
    { weight: 6, arbitrary: deepNestingBody(base, field) },
    {
      weight: 3,
      arbitrary: fc
        .constantFrom('[]', 'null', '1', '"text"', 'true', '{}', '[{}]', '{"__proto__":{"x":1}}')
        .map((text) => raw('not an object', 'application/json', text)),
    },
    {
      weight: 5,
      arbitrary: fc
        .tuple(
          fc.constantFrom(
            'text/plain',
            'application/x-www-form-urlencoded',
            'application/octet-stream',
            'multipart/form-data; boundary=x',
            'application/xml',
            'application/json; charset=latin1',
            'application/jsonx',
            null,
          ),
          fc.oneof(
            base.map((body) => JSON.stringify(body)),
            fc.string(),
            fc.constant('a=1&b=%00&c=%ED%A0%80'),
          ),
        )
        .map(([contentType, text]) => raw('other content type', contentType, text)),
    },
  );
}

const rawPathEscapes = fc.constantFrom(
  '%00',
  '%ED%A0%80',
  '%FF',
  '%',
  '%zz',
  '%C0%AF',
  '..',
  '%2F',
);

function paramArbitrary(valid: string): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant(encodeSegment(valid)) },
    { weight: 4, arbitrary: badString.map((value) => encodeSegment(value.slice(0, 300))) },
    { weight: 1, arbitrary: fc.uuid().map(encodeSegment) },
    {
      weight: 1,
      arbitrary: fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map((number) => String(number)),
    },
    { weight: 2, arbitrary: rawPathEscapes },
  );
}

function queryArbitrary(schema: z.ZodType | undefined): fc.Arbitrary<string> {
  const knownKeys = schema ? objectShapesOf(schema).flatMap((shape) => Object.keys(shape)) : [];
  const key = knownKeys.length > 0 ? fc.oneof(fc.constantFrom(...knownKeys), badString) : badString;
  const short = (arbitrary: fc.Arbitrary<string>) => arbitrary.map((value) => value.slice(0, 200));
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant('') },
    {
      weight: 5,
      arbitrary: fc
        .array(fc.tuple(short(key), short(badString)), { minLength: 1, maxLength: 4 })
        .map(
          (pairs) =>
            '?' +
            pairs
              .map(([name, value]) => `${encodeSegment(name)}=${encodeSegment(value)}`)
              .join('&'),
        ),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          knownKeys.length > 0 ? fc.constantFrom(...knownKeys) : fc.constant('q'),
          rawPathEscapes,
        )
        .map(([name, escape]) => `?${name}=${escape}&${name}=1&${escape}=x&a[b]=1`),
    },
  );
}

function requestArbitrary(route: string, fixtures: Fixtures): fc.Arbitrary<FuzzRequest> {
  const [method, path] = route.split(' ') as [FuzzRequest['method'], string];
  const schemas = routeSchemas[route]!;
  const known: Record<string, unknown> = {
    user_id: fixtures.appUserId,
    username: fixtures.username,
    password: PASSWORD,
    api_key: fixtures.apiKey,
    file_id: fixtures.fileId,
    version: '1.0.0',
    session_token: `sess_${'b'.repeat(32)}_1700000000`,
    type: 'hwid',
    value: 'HW-FUZZ',
    applicationId: fixtures.applicationId,
    // Variable names are letters, digits, _ . and - only.
    name: /\/(user-)?var|\/variables/.test(path) ? 'fuzzed' : 'Fuzzed application',
    // A public address literal: a valid body reaches the verb without a DNS lookup.
    url: 'https://93.184.215.14/fuzz',
  };
  const validParams: Record<string, string> = {
    id: path.startsWith('/api/admin/users/')
      ? fixtures.otherAccountId
      : path.startsWith('/api/api-tokens/')
        ? fixtures.apiTokenId
        : String(path.startsWith('/api/webhooks/') ? fixtures.webhookId : fixtures.applicationId),
    deliveryId: fixtures.deliveryId,
    appId: String(fixtures.applicationId),
    userId: fixtures.appUserId,
    planId: fixtures.planId,
    variableId: fixtures.variableId,
    entryId: String(fixtures.blacklistEntryId),
    publicId: fixtures.portalPublicId,
    language: 'csharp',
    name: path.includes('/variables/') ? 'fuzzed' : 'authentication.ts',
    versionId: fixtures.codeFileVersionId,
    fileId: fixtures.fileId,
    token: fixtures.downloadToken,
  };
  const paramNames = [...path.matchAll(/:(\w+)/g)].map((match) => match[1]!);
  const params = fc.tuple(...paramNames.map((name) => paramArbitrary(validParams[name] ?? '1')));
  const hasBody = method === 'POST' || method === 'PUT' || method === 'PATCH';
  const noBody = fc.constant({ label: 'no body', headers: {}, payload: undefined });
  const body = schemas.body
    ? bodyArbitrary(schemas.body, known)
    : hasBody
      ? bodyArbitrary(z.object({}), known)
      : method === 'DELETE'
        ? // A DELETE is a write too, and a body sent with one is parsed like any other.
          fc.oneof(
            { weight: 5, arbitrary: noBody },
            { weight: 1, arbitrary: deepNestingBody(fc.constant({}), fc.constant('reason')) },
          )
        : noBody;
  const callerHeaders: fc.Arbitrary<Record<string, string>> =
    schemas.caller === 'owner'
      ? fc.constant({
          ...fixtures.owner.headers,
          origin: 'http://localhost',
          'sec-fetch-site': 'same-origin',
        })
      : schemas.caller === 'client'
        ? fc.oneof(
            { weight: 8, arbitrary: fc.constant({ 'x-api-key': fixtures.apiKey }) },
            {
              weight: 1,
              arbitrary: fc
                .string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz_-0123456789') })
                .map((apiKey) => ({ 'x-api-key': apiKey })),
            },
            {
              weight: 1,
              arbitrary: fc
                .string({
                  unit: fc
                    .integer({ min: 0x20, max: 0x7e })
                    .map((code) => String.fromCharCode(code)),
                  maxLength: 200,
                })
                .map((nonce) => ({ 'x-api-key': fixtures.apiKey, 'x-request-nonce': nonce })),
            },
          )
        : schemas.caller === 'manage'
          ? fc.oneof(
              {
                weight: 8,
                arbitrary: fc.constant({ authorization: `Bearer ${fixtures.manageToken}` }),
              },
              {
                weight: 1,
                arbitrary: fc
                  .string({ unit: fc.constantFrom(...'lk_ABCxyz019 \t'), maxLength: 60 })
                  .map((token) => ({ authorization: `Bearer ${token}` })),
              },
              // An owner's cookie is no credential here.
              { weight: 1, arbitrary: fc.constant({ cookie: fixtures.owner.cookie }) },
            )
          : schemas.caller === 'portal'
            ? fc.constant({
                origin: 'http://localhost',
                'sec-fetch-site': 'same-origin',
                cookie: fixtures.portalCookie,
              })
            : fc.constant({ origin: 'http://localhost', 'sec-fetch-site': 'same-origin' });
  return fc
    .tuple(params, queryArbitrary(schemas.query), body, callerHeaders)
    .map(([values, query, request, headers]) => {
      let url = path;
      paramNames.forEach((name, index) => {
        url = url.replace(`:${name}`, values[index]!);
      });
      return {
        label: request.label,
        method,
        url: url + query,
        headers: { ...headers, ...request.headers },
        ...(request.payload === undefined ? {} : { payload: request.payload }),
      };
    });
}

/** No 5xx; a 4xx in the documented shape of its API. */
function checkResponse(
  { caller, errorBody }: Pick<RouteSchemas, 'caller' | 'errorBody'>,
  url: string,
  response: LightMyRequestResponse,
): void {
  expect(response.statusCode, response.body).toBeLessThan(500);
  if (response.statusCode < 400) return;
  // Outside /api a page answers (the portal's, or the console's fallback): its 404 is the page
  // itself, or plain text when the console is not built. The JSON shapes are the APIs'.
  if (!url.startsWith('/api/') && !url.startsWith('/metrics')) {
    expect(String(response.headers['content-type'])).toMatch(
      /^(text\/html|text\/plain|application\/json)/,
    );
    return;
  }
  // Under /api/v1 the client API answers what reaches no route in its own shape (an unmatched
  // path, its 404, signed; a path parameter the router refused, its 400): a download URL
  // (public, the owner shape for its own answers) can come to either.
  // The management API's scope; and the routes for other services' machines (a shop's URL),
  // except for what never reached the route (a URL the router refused answers as the app does).
  const isProblem = String(response.headers['content-type']).startsWith('application/problem+json');
  if (url.startsWith('/api/manage/') || (errorBody === 'problem' && isProblem)) {
    expect(String(response.headers['content-type'])).toMatch(/^application\/problem\+json/);
    expect(problemSchema.strict().safeParse(response.json()).success, response.body).toBe(true);
    return;
  }
  const isClientApiAnswer =
    caller === 'client' ||
    (url.startsWith('/api/v1/') && Object.hasOwn(response.json() as object, 'success'));
  if (isClientApiAnswer) {
    const body: unknown = response.json();
    expect(clientErrorResponseSchema.strict().safeParse(body).success, response.body).toBe(true);
    if (caller === 'client') {
      expect(response.headers['x-signature-ed25519']).toMatch(/^[0-9a-f]{128}$/);
    }
  } else {
    expect(errorBodySchema.strict().safeParse(response.json()).success, response.body).toBe(true);
  }
}

describe('fuzzing every route', () => {
  let testApp: TestApp;
  let fixtures: Fixtures;
  const registered = new Set<string>();

  beforeAll(async () => {
    testApp = await createTestApp({
      env: {
        PUBLIC_ORIGIN: 'http://localhost',
        CLIENT_API_IP_LIMIT_PER_MINUTE: '1000000',
        MANAGE_API_RATE_LIMIT_PER_MINUTE: '1000000',
        LOGIN_FAILURE_LIMIT: '1000',
        // Metrics on: their hooks then run on every route under fuzzed input too.
        METRICS_TOKEN: 'fuzz-metrics-token-0123456789',
      },
      onRoute: (route) => {
        const methods = Array.isArray(route.method) ? route.method : [route.method];
        for (const method of methods)
          if (method !== 'HEAD') registered.add(`${method} ${route.url}`);
      },
    });
    const owner = await signInOwner(testApp.app);
    const application = await createApplicationViaApi(testApp.app, owner);
    const appUser = await createAppUserViaApi(testApp.app, owner, application.id, {
      password: PASSWORD,
    });
    const entry = await testApp.app.inject({
      method: 'POST',
      url: '/api/blacklist',
      headers: owner.headers,
      payload: { type: 'hwid', value: 'HW-BLOCKED' },
    });
    const plan = await createPlanViaApi(testApp.app, owner, application.id);
    const webhook = await createWebhookViaApi(testApp.app, owner);
    const delivery = await insertWebhookDelivery(testApp.database.db, webhook.id, {
      status: 'failed',
    });
    const portal = await testApp.app.inject({
      method: 'PUT',
      url: `/api/applications/${application.id}`,
      headers: owner.headers,
      payload: { portalEnabled: true, selfServiceReset: true },
    });
    const portalPublicId = (portal.json() as { portalPublicId: string }).portalPublicId;
    const portalSignIn = await testApp.app.inject({
      method: 'POST',
      url: `/api/portal/${portalPublicId}/session`,
      headers: { origin: 'http://localhost' },
      payload: { username: appUser.username, password: PASSWORD },
    });
    const portalCookie = portalSignIn.cookies.find((cookie) => cookie.name === 'latchkey_portal');
    if (!portalCookie) throw new Error(`portal sign-in: ${portalSignIn.body}`);
    const variable = await testApp.app.inject({
      method: 'POST',
      url: `/api/applications/${application.id}/variables`,
      headers: owner.headers,
      payload: { name: 'fuzzed', value: 'x', requiresSession: false },
    });
    if (variable.statusCode !== 201) throw new Error(`create variable: ${variable.body}`);
    const uploaded = await testApp.app.inject({
      method: 'POST',
      url: `/api/applications/${application.id}/files?name=setup.exe&version=1&requiresSession=false`,
      headers: { ...owner.headers, 'content-type': 'application/octet-stream' },
      payload: Buffer.from('fuzzed file'),
    });
    const fileId = (uploaded.json() as { id: string }).id;
    const fileUrl = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/file',
      headers: { 'x-api-key': application.apiKey },
      payload: { file_id: fileId },
    });
    const downloadToken = String((fileUrl.json() as { url: string }).url)
      .split('/')
      .at(-1)!;
    const other = await signInOwner(testApp.app);
    const manageToken = await createApiTokenViaApi(testApp.app, owner);
    const revocableToken = await createApiTokenViaApi(testApp.app, owner);
    const codeFileVersions = await testApp.app.inject({
      url: '/api/code-files/authentication.ts/versions',
      headers: owner.headers,
    });
    fixtures = {
      owner,
      codeFileVersionId: (codeFileVersions.json() as { versions: { id: string }[] }).versions[0]!
        .id,
      otherAccountId: other.accountId,
      webhookId: webhook.id,
      deliveryId: delivery.id,
      apiKey: application.apiKey,
      applicationId: application.id,
      appUserId: appUser.id,
      username: appUser.username,
      planId: plan.id,
      blacklistEntryId: (entry.json() as { id: number }).id,
      portalPublicId,
      portalCookie: `latchkey_portal=${portalCookie.value}`,
      variableId: (variable.json() as { id: string }).id,
      fileId,
      downloadToken,
      manageToken: manageToken.token,
      apiTokenId: revocableToken.id,
    };
  });
  afterAll(() => testApp?.close());

  it('has the schemas of every registered route (add a new route to routeSchemas)', () => {
    expect(
      [...registered]
        .filter((route) => !(route in routeSchemas) && !fuzzedElsewhere.has(route))
        .sort(),
    ).toEqual([]);
    expect(Object.keys(routeSchemas).filter((route) => !registered.has(route))).toEqual([]);
  });

  it('refuses a too-deep body on every management write before it runs: nothing changes, nothing is recorded', async () => {
    const db = testApp.database.db;
    const tables = [
      'applications',
      'app_users',
      'app_user_devices',
      'subscriptions',
      'plans',
      'license_keys',
      'webhooks',
      'blacklist_entries',
      'imports',
      'audit_entries',
      'idempotency_keys',
    ];
    const snapshot = async () => {
      const digests: Record<string, unknown> = {};
      for (const table of tables) {
        const result = await db.execute(
          sql.raw(
            // Without the batched request counters, which the client calls of the set-up move.
            `with kept as (select (to_jsonb(t) - 'total_api_requests' - 'last_activity_at')::text as row from ${table} t)
             select count(*)::int as rows, md5(coalesce(string_agg(row, ',' order by row), '')) as digest from kept`,
          ),
        );
        digests[table] = (result as unknown as { rows: unknown[] }).rows[0];
      }
      return digests;
    };
    const writes = Object.keys(routeSchemas).filter(
      (route) =>
        route.includes(' /api/manage/') &&
        !route.startsWith('GET ') &&
        // An export file's bytes, not a JSON body: the importer reads it.
        route !== 'POST /api/manage/v1/applications/:id/imports',
    );
    expect(writes.length).toBeGreaterThan(15);
    const before = await snapshot();
    for (const route of writes) {
      const [method, path] = route.split(' ') as ['POST' | 'PATCH' | 'PUT' | 'DELETE', string];
      const url = path.replace(/:(\w+)/g, (_, name: string) =>
        name === 'id'
          ? String(path.includes('/webhooks/') ? fixtures.webhookId : fixtures.applicationId)
          : name === 'userId'
            ? fixtures.appUserId
            : name === 'entryId'
              ? String(fixtures.blacklistEntryId)
              : '00000000-0000-4000-8000-000000000000',
      );
      const response = await testApp.app.inject({
        method,
        url,
        headers: {
          authorization: `Bearer ${fixtures.manageToken}`,
          'content-type': 'application/json',
          'idempotency-key': `deep-${route}`,
        },
        payload: `{"isPaused":true,"reason":"deep","nested":${nestedJsonText(5_000, 'mixed')}}`,
      });
      expect(response.statusCode, `${route}: ${response.body}`).toBe(400);
      expect(String(response.headers['content-type'])).toMatch(/^application\/problem\+json/);
      expect(problemSchema.parse(response.json())).toMatchObject({
        code: 'BAD_REQUEST',
        detail: JSON_BODY_TOO_DEEP,
      });
    }
    expect(await snapshot()).toEqual(before);
  });

  // Deleting routes last, so the fixtures they may delete serve every other route first.
  const routes = Object.keys(routeSchemas)
    .filter((route) => !fuzzedElsewhere.has(route))
    .sort((a, b) => Number(a.startsWith('DELETE')) - Number(b.startsWith('DELETE')));
  for (const route of routes) {
    it(`answers bad input to ${route} without a 5xx`, { timeout: 120_000 }, async () => {
      const schemas = routeSchemas[route]!;
      let remote = 0;
      await fc.assert(
        fc.asyncProperty(requestArbitrary(route, fixtures), async (request) => {
          remote += 1;
          const response = await testApp.app.inject({
            method: request.method,
            url: request.url,
            headers: request.headers,
            // A fresh address each time: per-IP limits must not hide the handlers.
            remoteAddress: `10.${(remote >> 16) & 255}.${(remote >> 8) & 255}.${remote & 255}`,
            ...(request.payload === undefined
              ? {}
              : { payload: request.payload as InjectOptions['payload'] }),
          });
          try {
            checkResponse(schemas, request.url, response);
          } catch (error) {
            throw new Error(
              `${route} (${request.label}) ${request.method} ${request.url} -> ` +
                `${response.statusCode}: ${(error as Error).message}`,
            );
          }
        }),
        { seed: SEED, numRuns: RUNS_PER_ROUTE, endOnFailure: true },
      );
    });
  }
});
