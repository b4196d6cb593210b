import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  BLACKLIST_INVALID_EMAIL,
  BLACKLIST_INVALID_IP,
  BLACKLIST_TYPE_AND_VALUE_REQUIRED,
  blacklistEntryListSchema,
  blacklistEntrySchema,
  deletedResponseSchema,
  errorBodySchema,
} from '@latchkey/contracts';
import { blacklistEntries } from '../../db/schema/index.ts';
import { createManualClock } from '../../lib/clock.ts';
import {
  callClientApi,
  insertAppUserWithPassword,
  insertClientApplication,
} from '../../../test/factories.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';
import { ownerRequests } from '../../../test/owner-requests.ts';
import { signInOwner, type SignedInOwner } from '../../../test/test-app.ts';

describe('owner API: blacklist', () => {
  const clock = createManualClock(new Date('2026-04-01T12:00:00Z'));

  const testApp = startTestAppForSuite({ clock });
  const owner = signInOwnerForSuite(testApp);

  const request = ownerRequests(testApp, owner);

  const create = async (payload: Record<string, unknown>, who: SignedInOwner = owner) => {
    const response = await request('POST', '/api/blacklist', payload, who);
    expect(response.statusCode, response.body).toBe(201);
    return blacklistEntrySchema.parse(response.json());
  };

  it('creates global and per-application entries and lists them newest first', async () => {
    const fresh = await signInOwner(testApp.app);
    const application = await insertClientApplication(testApp, fresh.accountId, { name: 'Game' });
    const global = await create(
      { type: 'ip', value: ' 203.0.113.9 ', reason: '  abuse  ', applicationId: 'global' },
      fresh,
    );
    expect(global).toEqual({
      id: expect.any(Number),
      type: 'ip',
      value: '203.0.113.9',
      reason: 'abuse',
      applicationId: null,
      application: null,
      isActive: true,
      createdAt: '2026-04-01T12:00:00.000Z',
    });
    clock.advance(1000);
    const scoped = await create(
      { type: 'hwid', value: 'PC-1', reason: '', applicationId: application.id },
      fresh,
    );
    expect(scoped).toMatchObject({
      applicationId: application.id,
      application: { name: 'Game' },
      reason: null,
    });
    clock.advance(1000);
    const noApplication = await create({ type: 'email', value: 'a@b.example' }, fresh);
    expect(noApplication.applicationId).toBeNull();
    const stringId = await create(
      { type: 'username', value: 'griefer', applicationId: String(application.id) },
      fresh,
    );
    expect(stringId.applicationId).toBe(application.id);

    const listed = await request('GET', '/api/blacklist', undefined, fresh);
    expect(listed.statusCode).toBe(200);
    expect(blacklistEntryListSchema.parse(listed.json()).map((entry) => entry.id)).toEqual([
      stringId.id,
      noApplication.id,
      scoped.id,
      global.id,
    ]);
  });

  it("refuses a missing type or value with the spec's message, and other bad input", async () => {
    for (const body of [
      {},
      { type: 'ip' },
      { value: '1.2.3.4' },
      { type: 'ip', value: '   ' },
      { type: 'mac', value: 'aa:bb' },
      { type: 5, value: 'x' },
      { type: 'username', value: 42 },
    ]) {
      const response = await request('POST', '/api/blacklist', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorBodySchema.parse(response.json())).toEqual({
        message: BLACKLIST_TYPE_AND_VALUE_REQUIRED,
        code: 'BAD_REQUEST',
      });
    }
    const cases: [Record<string, unknown>, string | RegExp][] = [
      [{ type: 'ip', value: '10.0.0.0/33' }, `value: ${BLACKLIST_INVALID_IP}`],
      [{ type: 'ip', value: '999.1.1.1' }, `value: ${BLACKLIST_INVALID_IP}`],
      [{ type: 'email', value: 'not-an-address' }, `value: ${BLACKLIST_INVALID_EMAIL}`],
      [{ type: 'hwid', value: 'h'.repeat(257) }, /^value: Value must be at most 256/],
      [{ type: 'hwid', value: 'x', reason: 'r'.repeat(501) }, /^reason: /],
      [{ type: 'hwid', value: 'x', applicationId: 'one' }, 'applicationId: Invalid application id'],
    ];
    for (const [body, message] of cases) {
      const response = await request('POST', '/api/blacklist', body);
      expect(response.statusCode).toBe(400);
      if (typeof message === 'string') expect(response.json().message).toBe(message);
      else expect(response.json().message).toMatch(message);
    }
  });

  it("answers 404 for another owner's application and 409 for a duplicate", async () => {
    const otherOwner = await signInOwner(testApp.app);
    const foreign = await insertClientApplication(testApp, otherOwner.accountId);
    const response = await request('POST', '/api/blacklist', {
      type: 'ip',
      value: '198.51.100.1',
      applicationId: foreign.id,
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Application not found', code: 'NOT_FOUND' });
    const [leaked] = await testApp.database.db
      .select()
      .from(blacklistEntries)
      .where(eq(blacklistEntries.value, '198.51.100.1'));
    expect(leaked).toBeUndefined();

    await create({ type: 'username', value: 'Dupe' });
    const duplicate = await request('POST', '/api/blacklist', { type: 'username', value: 'dupe' });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toEqual({
      message: 'This value is already blacklisted',
      code: 'CONFLICT',
    });
    // The same value for a single application is a different entry.
    const application = await insertClientApplication(testApp, owner.accountId);
    await create({ type: 'username', value: 'dupe', applicationId: application.id });
  });

  it('deletes only its own entries', async () => {
    const otherOwner = await signInOwner(testApp.app);
    const theirs = await create({ type: 'hwid', value: 'THEIR-PC' }, otherOwner);
    const mine = await create({ type: 'hwid', value: 'MY-PC' });

    const foreign = await request('DELETE', `/api/blacklist/${theirs.id}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ message: 'Blacklist entry not found', code: 'NOT_FOUND' });
    expect(
      (await request('GET', '/api/blacklist', undefined, otherOwner))
        .json()
        .map((entry: { id: number }) => entry.id),
    ).toContain(theirs.id);
    expect(JSON.stringify((await request('GET', '/api/blacklist')).json())).not.toContain(
      'THEIR-PC',
    );

    const deleted = await request('DELETE', `/api/blacklist/${mine.id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deletedResponseSchema.parse(deleted.json()).message).toBe(
      'Blacklist entry deleted successfully',
    );
    expect((await request('DELETE', `/api/blacklist/${mine.id}`)).statusCode).toBe(404);
    const malformed = await request('DELETE', '/api/blacklist/abc');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toBe('entryId: Invalid blacklist entry id');
  });

  it('takes effect on the very next client request, and removing it allows access again', async () => {
    const application = await insertClientApplication(testApp, owner.accountId);
    const user = await insertAppUserWithPassword(testApp.database.db, application.id, 'pw', {
      email: 'Player@Example.com',
    });
    const login = async () =>
      (
        await callClientApi(testApp.app, 'login', {
          apiKey: application.apiKey,
          body: { username: user.username, password: 'pw', version: '1.0.0' },
        })
      ).json().code;
    expect(await login()).toBe('OK');

    // An IPv4-mapped IPv6 spelling is stored as the IPv4 address the client API sees.
    const byIp = await create({ type: 'ip', value: '::FFFF:127.0.0.2' });
    expect(byIp.value).toBe('127.0.0.2');
    expect(await login()).toBe('BLACKLISTED');
    await request('DELETE', `/api/blacklist/${byIp.id}`);
    expect(await login()).toBe('OK');

    const byEmail = await create({ type: 'email', value: 'player@example.com' });
    expect(await login()).toBe('BLACKLISTED');
    await request('DELETE', `/api/blacklist/${byEmail.id}`);
    expect(await login()).toBe('OK');
  });
  it('answers a page of 50 by default with the total in a header; searches and filters', async () => {
    const many = await signInOwner(testApp.app);
    const start = Date.parse('2026-02-01T00:00:00Z');
    await testApp.database.db.insert(blacklistEntries).values(
      Array.from({ length: 75 }, (_, index) => ({
        ownerAccountId: many.accountId,
        type: index % 3 === 0 ? ('hwid' as const) : ('username' as const),
        value: `Value-${String(index).padStart(2, '0')}`,
        reason: index % 25 === 0 ? 'Chargeback fraud' : null,
        createdAt: new Date(start + index * 60_000),
      })),
    );
    const list = async (query = '') => {
      const response = await request('GET', `/api/blacklist${query}`, undefined, many);
      expect(response.statusCode, response.body).toBe(200);
      return {
        values: blacklistEntryListSchema.parse(response.json()).map((entry) => entry.value),
        total: response.headers['x-total-count'],
        page: response.headers['x-page'],
        pageSize: response.headers['x-page-size'],
      };
    };
    const value = (index: number) => `Value-${String(index).padStart(2, '0')}`;

    const first = await list();
    expect(first).toMatchObject({ total: '75', page: '1', pageSize: '50' });
    expect(first.values).toEqual(Array.from({ length: 50 }, (_, index) => value(74 - index)));
    expect((await list('?page=2')).values).toEqual(
      Array.from({ length: 25 }, (_, index) => value(24 - index)),
    );
    expect(await list('?search=value-7')).toMatchObject({
      total: '5',
      values: [value(74), value(73), value(72), value(71), value(70)],
    });
    expect(await list('?search=CHARGEBACK')).toMatchObject({
      total: '3',
      values: [value(50), value(25), value(0)],
    });
    expect((await list('?type=hwid')).total).toBe('25');
    await testApp.database.db
      .update(blacklistEntries)
      .set({ isActive: false })
      .where(eq(blacklistEntries.value, value(72)));
    expect((await list('?type=hwid&isActive=true')).total).toBe('24');
    expect((await list('?isActive=false')).values).toEqual([value(72)]);
    expect(await list('?type=hwid&search=value-&pageSize=2')).toMatchObject({
      total: '25',
      values: [value(72), value(69)],
    });
    // Another owner's entries are neither listed nor counted.
    expect((await list('?search=value')).total).toBe('75');

    for (const [query, message] of [
      ['?type=cookie', /^type: /],
      ['?isActive=yes', /^isActive: /],
      ['?pageSize=0', /^pageSize: /],
      ['?page=x', /^page: /],
    ] as const) {
      const response = await request('GET', `/api/blacklist${query}`, undefined, many);
      expect(response.statusCode, query).toBe(400);
      expect(errorBodySchema.parse(response.json()).message).toMatch(message);
    }
  });
});
