import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_TOKEN_PATTERN,
  apiTokenListSchema,
  applicationSchema,
  applicationStatsSchema,
  auditEntryListSchema,
  errorBodySchema,
  problemSchema,
  type Problem,
} from '@latchkey/contracts';
import { apiTokens } from '../../db/schema/index.ts';
import { createManualClock } from '../../lib/clock.ts';
import { keyedDigest } from '../../lib/keyed-digest.ts';
import { createApiTokenViaApi, createApplicationViaApi } from '../../../test/factories.ts';
import {
  createTestApp,
  signInOwner,
  type SignedInOwner,
  type TestApp,
} from '../../../test/test-app.ts';
import { generateApiToken } from '../../lib/api-token-format.ts';
import { createOpenApiDocument, openApiPathOf } from '../../http/openapi-document.ts';
import { routeContracts, routePermissions } from '../../route-table.ts';
import { TOKEN_GUESS_LIMIT } from './management-guard.ts';

const RATE_LIMIT = 20;

describe('management API: tokens and their guard', () => {
  let testApp: TestApp;
  let siteOwner: SignedInOwner;
  let vendor: SignedInOwner;
  const clock = createManualClock(new Date('2026-06-01T09:00:00Z'));
  const registered = new Set<string>();

  beforeAll(async () => {
    testApp = await createTestApp({
      onRoute: (route) => {
        const methods = Array.isArray(route.method) ? route.method : [route.method];
        for (const method of methods) {
          if (method !== 'HEAD') registered.add(`${method} ${route.url}`);
        }
      },
      clock,
      env: { MANAGE_API_RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT) },
    });
    siteOwner = await signInOwner(testApp.app);
    vendor = await signInOwner(testApp.app);
    // The second account is an ordinary vendor; the site owner makes it an admin, which is
    // what turns Manage API Tokens on (on by default for owners and admins).
    await setRoleAndPermissions(vendor, 'admin', [
      'manage_applications',
      'delete_applications',
      'manage_api_tokens',
    ]);
  });
  afterAll(() => testApp.close());

  async function setRoleAndPermissions(
    account: SignedInOwner,
    role: string,
    permissions: string[],
    isActive = true,
  ) {
    const response = await testApp.app.inject({
      method: 'PATCH',
      url: `/api/admin/users/${account.accountId}`,
      headers: siteOwner.headers,
      payload: { role, permissions, isActive },
    });
    expect(response.statusCode, response.body).toBe(200);
  }

  let addressCounter = 0;
  /** Each test calls from addresses of its own, so the guess throttle of one never meets another. */
  const freshAddress = () => `198.51.100.${(addressCounter += 1)}`;

  const manage = (
    url: string,
    token: string | null,
    options: { remoteAddress?: string; headers?: Record<string, string> } = {},
  ) =>
    testApp.app.inject({
      method: 'GET',
      url: `/api/manage/v1${url}`,
      remoteAddress: options.remoteAddress ?? freshAddress(),
      headers: {
        ...(token === null ? {} : { authorization: `Bearer ${token}` }),
        ...options.headers,
      },
    });

  const expectProblem = (
    response: Awaited<ReturnType<typeof manage>>,
    status: number,
    code: Problem['code'],
  ): Problem => {
    expect(response.statusCode, response.body).toBe(status);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    const problem = problemSchema.parse(response.json());
    expect(problem).toMatchObject({ status, code, type: 'about:blank' });
    return problem;
  };

  it('declares a scope and a console twin for every management route, in OpenAPI too', () => {
    const routes = [...registered].filter((key) => key.split(' ')[1]!.startsWith('/api/manage/'));
    const documented = Object.keys(routeContracts).filter((key) =>
      key.split(' ')[1]!.startsWith('/api/manage/'),
    );
    expect(routes.sort()).toEqual(documented.sort());
    expect(routes.length).toBeGreaterThanOrEqual(31);
    const openApi = createOpenApiDocument(routeContracts) as unknown as {
      paths: Record<string, Record<string, { security?: Record<string, string[]>[] }>>;
    };
    for (const key of routes) {
      const contract = routeContracts[key]!;
      expect(contract.caller, key).toBe('manage');
      expect(contract.management, key).toBeDefined();
      expect(routePermissions[contract.management!.sameAs], key).toBeDefined();
      const [method, url] = key.split(' ') as [string, string];
      const operation = openApi.paths[openApiPathOf(url)]![method.toLowerCase()]!;
      expect(operation.security, key).toEqual([{ managementToken: [contract.management!.scope] }]);
    }
  });

  it('shows a new token once, stores only its keyed digest, and lists it without its text', async () => {
    const application = await createApplicationViaApi(testApp.app, vendor);
    const created = await createApiTokenViaApi(testApp.app, vendor, {
      name: '  Sellix shop  ',
      scopes: ['users:write', 'applications:read', 'users:write'],
      applicationIds: [application.id],
      allowedIps: ['203.0.113.0/24', '2001:db8::/32'],
      expiresAt: '2026-12-31T23:59:59Z',
    });
    expect(created.token).toMatch(API_TOKEN_PATTERN);
    expect(created).toMatchObject({
      name: 'Sellix shop',
      prefix: created.token.slice(0, 11),
      // Deduplicated, in the catalogue's order.
      scopes: ['applications:read', 'users:write'],
      applicationIds: [application.id],
      allowedIps: ['203.0.113.0/24', '2001:db8::/32'],
      expiresAt: '2026-12-31T23:59:59.000Z',
      lastUsedAt: null,
      lastUsedIp: null,
    });

    const [row] = await testApp.database.db
      .select()
      .from(apiTokens)
      .where(eq(apiTokens.id, created.id));
    expect(row!.tokenDigest).toBe(
      keyedDigest(created.token, 'api-token', testApp.config.serverSecret),
    );
    expect(JSON.stringify(row)).not.toContain(created.token.slice(11));

    const listed = await testApp.app.inject({
      method: 'GET',
      url: '/api/api-tokens',
      headers: vendor.headers,
    });
    expect(listed.statusCode, listed.body).toBe(200);
    const tokens = apiTokenListSchema.parse(listed.json());
    const { token: _shownOnce, ...record } = created;
    expect(tokens).toContainEqual(record);
    expect(listed.body).not.toContain(created.token);
  });

  it('keeps each account’s tokens its own: another admin neither lists nor revokes them', async () => {
    const victims = await createApiTokenViaApi(testApp.app, siteOwner, { scopes: ['users:read'] });
    const listed = await testApp.app.inject({
      method: 'GET',
      url: '/api/api-tokens',
      headers: vendor.headers,
    });
    expect(listed.body).not.toContain(victims.id);
    const revoke = await testApp.app.inject({
      method: 'DELETE',
      url: `/api/api-tokens/${victims.id}`,
      headers: vendor.headers,
    });
    expect(revoke.statusCode, revoke.body).toBe(404);
    expect(errorBodySchema.parse(revoke.json()).message).toBe('API token not found');
    const stillThere = await testApp.app.inject({
      method: 'GET',
      url: '/api/api-tokens',
      headers: siteOwner.headers,
    });
    expect(stillThere.body).toContain(victims.id);
  });

  it('refuses bad token requests with messages a person can act on', async () => {
    const create = (payload: unknown) =>
      testApp.app.inject({
        method: 'POST',
        url: '/api/api-tokens',
        headers: vendor.headers,
        payload: payload as string,
      });
    const cases: [unknown, number, string][] = [
      [{ name: 'x', scopes: [] }, 400, 'Please choose at least one scope'],
      [{ name: 'x', scopes: ['users:delete'] }, 400, 'Unknown scope: users:delete'],
      [{ name: '   ', scopes: ['users:read'] }, 400, 'Please enter a name for the token'],
      [
        { name: 'x', scopes: ['users:read'], allowedIps: ['10.0.0.0/33'] },
        400,
        '10.0.0.0/33 is not an IP address or a CIDR range',
      ],
      [
        { name: 'x', scopes: ['users:read'], expiresAt: '2026-05-31T09:00:00Z' },
        400,
        'The expiry must be in the future',
      ],
    ];
    for (const [payload, status, message] of cases) {
      const response = await create(payload);
      expect(response.statusCode, response.body).toBe(status);
      expect(errorBodySchema.parse(response.json()).message).toContain(message);
    }
    // Another owner's application is a 404, as everywhere.
    const othersApplication = await createApplicationViaApi(testApp.app, siteOwner);
    const foreign = await create({
      name: 'x',
      scopes: ['users:read'],
      applicationIds: [othersApplication.id],
    });
    expect(foreign.statusCode, foreign.body).toBe(404);
  });

  it('answers a reachable application with the console’s shapes and the rate-limit headers', async () => {
    const reachable = await createApplicationViaApi(testApp.app, vendor);
    const unreachable = await createApplicationViaApi(testApp.app, vendor);
    const othersApplication = await createApplicationViaApi(testApp.app, siteOwner);
    const { token } = await createApiTokenViaApi(testApp.app, vendor, {
      scopes: ['applications:read'],
      applicationIds: [reachable.id],
    });

    const list = await manage('/applications', token);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.headers['ratelimit-limit']).toBe(String(RATE_LIMIT));
    expect(list.headers['ratelimit-remaining']).toBe(String(RATE_LIMIT - 1));
    expect(Number(list.headers['ratelimit-reset'])).toBeGreaterThan(0);
    const listed = applicationSchema.array().parse(list.json());
    expect(listed.map((application) => application.id)).toEqual([reachable.id]);

    const one = await manage(`/applications/${reachable.id}`, token);
    expect(one.statusCode, one.body).toBe(200);
    const console = await testApp.app.inject({
      method: 'GET',
      url: '/api/applications',
      headers: vendor.headers,
    });
    const consoleView = applicationSchema
      .array()
      .parse(console.json())
      .find((application) => application.id === reachable.id);
    expect(applicationSchema.parse(one.json())).toEqual(consoleView);
    const stats = await manage(`/applications/${reachable.id}/stats`, token);
    expect(stats.statusCode, stats.body).toBe(200);
    applicationStatsSchema.parse(stats.json());

    // Outside the token's applications, or another owner's: absent, never forbidden.
    for (const id of [unreachable.id, othersApplication.id, 999_999]) {
      expectProblem(await manage(`/applications/${id}`, token), 404, 'NOT_FOUND');
    }
  });

  it('forgets a deleted application in the tokens restricted to it: they reach nothing, never everything', async () => {
    const doomed = await createApplicationViaApi(testApp.app, vendor);
    const kept = await createApplicationViaApi(testApp.app, vendor);
    const { token, id } = await createApiTokenViaApi(testApp.app, vendor, {
      scopes: ['applications:read'],
      applicationIds: [doomed.id],
    });
    const deleted = await testApp.app.inject({
      method: 'DELETE',
      url: `/api/applications/${doomed.id}`,
      headers: vendor.headers,
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const listed = apiTokenListSchema.parse(
      (
        await testApp.app.inject({ method: 'GET', url: '/api/api-tokens', headers: vendor.headers })
      ).json(),
    );
    expect(listed.find((record) => record.id === id)?.applicationIds).toEqual([]);
    const reachable = await manage('/applications', token);
    expect(applicationSchema.array().parse(reachable.json())).toEqual([]);
    expectProblem(await manage(`/applications/${kept.id}`, token), 404, 'NOT_FOUND');
  });

  it('refuses a missing, malformed, unknown, expired or revoked token with the same 401', async () => {
    const { token, id } = await createApiTokenViaApi(testApp.app, vendor, {
      scopes: ['applications:read'],
      expiresAt: '2026-06-01T10:00:00Z',
    });
    expect((await manage('/applications', token)).statusCode).toBe(200);

    const missing = expectProblem(await manage('/applications', null), 401, 'TOKEN_INVALID');
    expect(missing.detail).toBe('Send the token as Authorization: Bearer lk_…');
    const typo = `${token.slice(0, 20)}${token[20] === 'x' ? 'y' : 'x'}${token.slice(21)}`;
    const unknown = generateApiToken();
    const invalid = [typo, unknown, 'lk_live_notatoken'].map(async (text) =>
      expectProblem(await manage('/applications', text), 401, 'TOKEN_INVALID'),
    );
    const details = new Set((await Promise.all(invalid)).map((problem) => problem.detail));
    expect([...details]).toEqual(['The token is unknown, revoked or expired']);

    // The owner's cookie means nothing here: each credential has one home.
    expectProblem(
      await manage('/applications', null, { headers: { cookie: vendor.cookie } }),
      401,
      'TOKEN_INVALID',
    );
    // And the token means nothing on the owner API.
    const onOwnerApi = await testApp.app.inject({
      method: 'GET',
      url: '/api/applications',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(onOwnerApi.statusCode).toBe(401);

    clock.advance(60 * 60_000);
    expectProblem(await manage('/applications', token), 401, 'TOKEN_INVALID');
    clock.advance(-60 * 60_000);
    expect((await manage('/applications', token)).statusCode).toBe(200);

    const revoked = await testApp.app.inject({
      method: 'DELETE',
      url: `/api/api-tokens/${id}`,
      headers: vendor.headers,
    });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expectProblem(await manage('/applications', token), 401, 'TOKEN_INVALID');
    const again = await testApp.app.inject({
      method: 'DELETE',
      url: `/api/api-tokens/${id}`,
      headers: vendor.headers,
    });
    expect(again.statusCode).toBe(404);
  });

  it('names the scope a token lacks', async () => {
    const { token } = await createApiTokenViaApi(testApp.app, vendor, { scopes: ['users:read'] });
    const problem = expectProblem(await manage('/applications', token), 403, 'SCOPE_MISSING');
    expect(problem.scope).toBe('applications:read');
    expect(problem.detail).toBe('This token lacks the scope applications:read');
  });

  it('holds a token to its IP allowlist: IPv4, IPv6 and CIDR ranges of both', async () => {
    const { token } = await createApiTokenViaApi(testApp.app, vendor, {
      scopes: ['applications:read'],
      allowedIps: ['192.0.2.10', '203.0.113.0/24', '2001:db8::/32', '2001:db9::7'],
    });
    const from = (remoteAddress: string) => manage('/applications', token, { remoteAddress });
    for (const allowed of [
      '192.0.2.10',
      '203.0.113.250',
      '::ffff:203.0.113.9',
      '2001:db8:1::5',
      '2001:db9::7',
    ]) {
      expect((await from(allowed)).statusCode, allowed).toBe(200);
    }
    for (const refused of ['192.0.2.11', '203.0.114.1', '2001:dba::1', '2001:db9::8']) {
      const problem = expectProblem(await from(refused), 403, 'IP_NOT_ALLOWED');
      expect(problem.detail).toContain(refused);
    }
  });

  it('never lets a token exceed its creator: a withdrawn permission or a deactivated account stops it', async () => {
    const colleague = await signInOwner(testApp.app);
    await setRoleAndPermissions(colleague, 'admin', ['manage_applications', 'manage_api_tokens']);
    const application = await createApplicationViaApi(testApp.app, colleague);
    const { token } = await createApiTokenViaApi(testApp.app, colleague, {
      scopes: ['applications:read'],
    });
    expect((await manage(`/applications/${application.id}`, token)).statusCode).toBe(200);

    await setRoleAndPermissions(colleague, 'user', ['manage_applications']);
    const problem = expectProblem(
      await manage(`/applications/${application.id}`, token),
      403,
      'PERMISSION_MISSING',
    );
    expect(problem.permission).toBe('manage_api_tokens');

    await setRoleAndPermissions(colleague, 'admin', ['manage_applications', 'manage_api_tokens']);
    expect((await manage(`/applications/${application.id}`, token)).statusCode).toBe(200);
    await setRoleAndPermissions(
      colleague,
      'admin',
      ['manage_applications', 'manage_api_tokens'],
      false,
    );
    expectProblem(await manage(`/applications/${application.id}`, token), 401, 'TOKEN_INVALID');
  });

  it('keeps the token page to accounts with Manage API Tokens', async () => {
    const plainVendor = await signInOwner(testApp.app);
    for (const [method, url] of [
      ['GET', '/api/api-tokens'],
      ['POST', '/api/api-tokens'],
    ] as const) {
      const response = await testApp.app.inject({
        method,
        url,
        headers: plainVendor.headers,
        ...(method === 'POST' ? { payload: { name: 'x', scopes: ['users:read'] } } : {}),
      });
      expect(response.statusCode, response.body).toBe(403);
      expect(errorBodySchema.parse(response.json()).message).toBe(
        'You need the "Manage API Tokens" permission to do this.',
      );
    }
  });

  it('spends a per-token budget a minute, answering 429 with Retry-After when it is gone', async () => {
    const { token } = await createApiTokenViaApi(testApp.app, vendor, {
      scopes: ['applications:read'],
    });
    const { token: otherToken } = await createApiTokenViaApi(testApp.app, vendor, {
      scopes: ['applications:read'],
    });
    const remaining: string[] = [];
    for (let call = 0; call < RATE_LIMIT; call += 1) {
      const response = await manage('/applications', token);
      expect(response.statusCode, response.body).toBe(200);
      remaining.push(String(response.headers['ratelimit-remaining']));
    }
    expect(remaining).toEqual(
      Array.from({ length: RATE_LIMIT }, (_, call) => String(RATE_LIMIT - 1 - call)),
    );
    const limited = await manage('/applications', token);
    expectProblem(limited, 429, 'RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.headers['ratelimit-remaining']).toBe('0');
    // The budget is the token's, not the account's.
    expect((await manage('/applications', otherToken)).statusCode).toBe(200);
  });

  it('throttles an address that keeps sending wrong tokens', async () => {
    const address = freshAddress();
    const { token } = await createApiTokenViaApi(testApp.app, vendor, {
      scopes: ['applications:read'],
    });
    for (let guess = 0; guess < TOKEN_GUESS_LIMIT; guess += 1) {
      const response = await manage('/applications', generateApiToken(), {
        remoteAddress: address,
      });
      expect(response.statusCode).toBe(401);
    }
    // Now even a good token is refused from there, before it is looked up.
    const throttled = await manage('/applications', token, { remoteAddress: address });
    expectProblem(throttled, 429, 'RATE_LIMITED');
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    expect((await manage('/applications', token)).statusCode).toBe(200);
  });

  it('records when and from where a token was last used', async () => {
    const created = await createApiTokenViaApi(testApp.app, vendor, {
      scopes: ['applications:read'],
    });
    await manage('/applications', created.token, { remoteAddress: '192.0.2.77' });
    const listed = apiTokenListSchema.parse(
      (
        await testApp.app.inject({ method: 'GET', url: '/api/api-tokens', headers: vendor.headers })
      ).json(),
    );
    expect(listed.find((token) => token.id === created.id)).toMatchObject({
      lastUsedAt: clock.now().toISOString(),
      lastUsedIp: '192.0.2.77',
    });
    const [row] = await testApp.database.db
      .select({ readCount: apiTokens.readCount, writeCount: apiTokens.writeCount })
      .from(apiTokens)
      .where(eq(apiTokens.id, created.id));
    expect(row).toEqual({ readCount: 1, writeCount: 0 });
  });

  it('writes creations and revocations to the audit trail, with the prefix, never the token', async () => {
    const created = await createApiTokenViaApi(testApp.app, vendor, {
      name: 'Discord bot',
      scopes: ['users:read'],
    });
    await testApp.app.inject({
      method: 'DELETE',
      url: `/api/api-tokens/${created.id}`,
      headers: vendor.headers,
    });
    const audit = await testApp.app.inject({
      method: 'GET',
      url: '/api/admin/audit?pageSize=200',
      headers: siteOwner.headers,
    });
    expect(audit.statusCode, audit.body).toBe(200);
    expect(audit.body).not.toContain(created.token);
    const entries = auditEntryListSchema
      .parse(audit.json())
      .filter((entry) => entry.apiToken?.id === created.id);
    expect(entries.map((entry) => entry.action).sort()).toEqual([
      'api_token_created',
      'api_token_revoked',
    ]);
    for (const entry of entries) {
      expect(entry.actor.id).toBe(vendor.accountId);
      expect(entry.apiToken).toEqual({
        id: created.id,
        name: 'Discord bot',
        prefix: created.prefix,
        scopes: ['users:read'],
        applicationIds: null,
      });
    }
  });

  it('answers an unknown management path as a problem, not the console’s 404', async () => {
    const { token } = await createApiTokenViaApi(testApp.app, vendor, { scopes: ['users:read'] });
    const problem = expectProblem(await manage('/nowhere?x=1', token), 404, 'NOT_FOUND');
    expect(problem.detail).toBe('No management API route GET /api/manage/v1/nowhere');
    // Without a token the route map is nobody's business.
    expectProblem(await manage('/nowhere', null), 401, 'TOKEN_INVALID');
  });
});
