import { describe, expect, it } from 'vitest';
import {
  BLACKLIST_INVALID_IP,
  blacklistEntrySchema,
  clientAuthResponseSchema,
  errorBodySchema,
} from '@latchkey/contracts';
import {
  callClientApi,
  insertAppUserWithPassword,
  insertClientApplication,
} from '../../../test/factories.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';
import { ownerRequests } from '../../../test/owner-requests.ts';
import { signInOwner, type SignedInOwner } from '../../../test/test-app.ts';

describe('blacklist: IP ranges (CIDR)', () => {
  const testApp = startTestAppForSuite();
  const owner = signInOwnerForSuite(testApp);
  const request = ownerRequests(testApp, owner);

  const create = async (payload: Record<string, unknown>, who: SignedInOwner = owner) => {
    const response = await request('POST', '/api/blacklist', payload, who);
    expect(response.statusCode, response.body).toBe(201);
    return blacklistEntrySchema.parse(response.json());
  };

  /** A login and a registration from `remoteAddress`: the two answers' codes. */
  const codesFrom = async (apiKey: string, username: string, remoteAddress: string) => {
    const login = await callClientApi(testApp.app, 'login', {
      apiKey,
      remoteAddress,
      body: { username, password: 'pw', version: '1.0.0' },
    });
    const register = await callClientApi(testApp.app, 'register', {
      apiKey,
      remoteAddress,
      body: { username: `new-${crypto.randomUUID().slice(0, 8)}`, password: 'hunter2 hunter2' },
    });
    return [
      clientAuthResponseSchema.parse(login.json()).code,
      clientAuthResponseSchema.parse(register.json()).code,
    ];
  };
  const BLOCKED = ['BLACKLISTED', 'BLACKLISTED'];
  const ALLOWED = ['OK', 'OK'];

  it('stores a range as its network address, one address as itself, mapped IPv4 as IPv4', async () => {
    const fresh = await signInOwner(testApp.app);
    const stored = async (value: string) => (await create({ type: 'ip', value }, fresh)).value;
    expect(await stored('10.1.2.3/8')).toBe('10.0.0.0/8');
    expect(await stored(' 2001:DB8:0:0:1::1/64 ')).toBe('2001:db8::/64');
    expect(await stored('::FFFF:198.51.100.7/120')).toBe('198.51.100.0/24');
    expect(await stored('192.0.2.5/32')).toBe('192.0.2.5');
    expect(await stored('2001:db8::9/128')).toBe('2001:db8::9');
    expect(await stored('0.0.0.0/0')).toBe('0.0.0.0/0');
    // Another spelling of a stored range is the same entry.
    const duplicate = await request(
      'POST',
      '/api/blacklist',
      { type: 'ip', value: '10.200.0.1/8' },
      fresh,
    );
    expect(duplicate.statusCode).toBe(409);
  });

  it('refuses a malformed range with 400 and the IP message', async () => {
    for (const value of [
      '10.0.0.0/33',
      '10.0.0.0/',
      '10.0.0/8',
      '10.0.0.0/8/8',
      '10.0.0.0/08',
      '10.0.0.0/-1',
      '2001:db8::/129',
      '2001:db8:::/64',
      'fe80::1%eth0/64',
      '/24',
    ]) {
      const response = await request('POST', '/api/blacklist', { type: 'ip', value });
      expect(response.statusCode, value).toBe(400);
      expect(errorBodySchema.parse(response.json())).toEqual({
        message: `value: ${BLACKLIST_INVALID_IP}`,
        code: 'BAD_REQUEST',
        fields: [{ field: 'value', message: BLACKLIST_INVALID_IP }],
      });
    }
  });

  it('refuses logins and registrations from inside an IPv4 range, mapped addresses too', async () => {
    const application = await insertClientApplication(testApp, owner.accountId);
    const user = await insertAppUserWithPassword(testApp.database.db, application.id, 'pw');
    const codes = (address: string) => codesFrom(application.apiKey, user.username, address);
    expect(await codes('203.0.113.77')).toEqual(ALLOWED);

    const range = await create({
      type: 'ip',
      value: '203.0.113.0/24',
      applicationId: application.id,
    });
    // Several rounds, so a prepared statement's generic plan is exercised as well.
    for (let round = 0; round < 3; round += 1) {
      expect(await codes('203.0.113.77')).toEqual(BLOCKED);
      expect(await codes('::ffff:203.0.113.77')).toEqual(BLOCKED);
      expect(await codes('203.0.114.1')).toEqual(ALLOWED);
      expect(await codes('2001:db8::1')).toEqual(ALLOWED);
    }
    // Only that application's: another of the owner's is not blocked.
    const other = await insertClientApplication(testApp, owner.accountId);
    const otherUser = await insertAppUserWithPassword(testApp.database.db, other.id, 'pw');
    expect(await codesFrom(other.apiKey, otherUser.username, '203.0.113.77')).toEqual(ALLOWED);

    await request('DELETE', `/api/blacklist/${range.id}`);
    expect(await codes('203.0.113.77')).toEqual(ALLOWED);
  });

  it('refuses logins and registrations from inside a global IPv6 /64, and no other owner', async () => {
    const application = await insertClientApplication(testApp, owner.accountId);
    const user = await insertAppUserWithPassword(testApp.database.db, application.id, 'pw');
    const codes = (address: string) => codesFrom(application.apiKey, user.username, address);
    const range = await create({ type: 'ip', value: '2001:db8:aa:bb::/64' });
    expect(range.applicationId).toBeNull();
    expect(await codes('2001:db8:aa:bb:1234:5678:9abc:def0')).toEqual(BLOCKED);
    expect(await codes('2001:DB8:AA:BB::1')).toEqual(BLOCKED);
    expect(await codes('2001:db8:aa:bc::1')).toEqual(ALLOWED);
    expect(await codes('203.0.113.5')).toEqual(ALLOWED);

    const stranger = await signInOwner(testApp.app);
    const theirs = await insertClientApplication(testApp, stranger.accountId);
    const theirUser = await insertAppUserWithPassword(testApp.database.db, theirs.id, 'pw');
    expect(await codesFrom(theirs.apiKey, theirUser.username, '2001:db8:aa:bb::1')).toEqual(
      ALLOWED,
    );
    await request('DELETE', `/api/blacklist/${range.id}`);
  });
});
