import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  appUserListSchema,
  appUserSchema,
  deletedResponseSchema,
  errorBodySchema,
  pagingHeaders,
  SEARCH_COUNT_LIMIT,
  type Application,
} from '@latchkey/contracts';
import { appUserSessions, appUsers } from '../../db/schema/index.ts';
import { createManualClock } from '../../lib/clock.ts';
import { PASSWORD_HASH_PREFIX, verifyPassword } from '../../lib/password-hashing.ts';
import {
  createApplicationViaApi,
  createAppUserViaApi,
  insertAppUserSession,
} from '../../../test/factories.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';
import { ownerRequests, withHeaders } from '../../../test/owner-requests.ts';

describe('owner API: end users of an application', () => {
  let application: Application;
  const clock = createManualClock(new Date('2026-03-01T10:00:00Z'));

  const testApp = startTestAppForSuite({ clock });
  const owner = signInOwnerForSuite(testApp);

  beforeAll(async () => {
    application = await createApplicationViaApi(testApp.app, owner, { name: 'Users app' });
  });

  const request = ownerRequests(testApp, owner);
  const usersUrl = () => `/api/applications/${application.id}/users`;
  const userUrl = (userId: string, action = '') =>
    `/api/applications/${application.id}/users/${userId}${action}`;

  const expectBadRequest = async (
    response: Awaited<ReturnType<typeof request>>,
    message: string | RegExp,
  ) => {
    expect(response.statusCode).toBe(400);
    const body = errorBodySchema.parse(response.json());
    if (typeof message === 'string') expect(body.message).toBe(message);
    else expect(body.message).toMatch(message);
  };

  const storedUser = async (id: string) => {
    const [row] = await testApp.database.db.select().from(appUsers).where(eq(appUsers.id, id));
    return row!;
  };

  describe('POST /api/applications/:id/users', () => {
    it('creates a user with an opaque id and an argon2id hash, never returning the password', async () => {
      const password = 'Tr0ub4dor&3 with spaces ';
      const response = await request('POST', usersUrl(), {
        username: '  alice  ',
        email: 'alice@example.com',
        password,
        expiresAt: '2027-01-31T23:59:00.000Z',
        hwid: 'HWID-ABC-123',
      });
      expect(response.statusCode).toBe(201);
      const user = appUserSchema.parse(response.json());
      expect(user).toMatchObject({
        applicationId: application.id,
        username: 'alice',
        email: 'alice@example.com',
        isActive: true,
        isPaused: false,
        expiresAt: '2027-01-31T23:59:00.000Z',
        hwid: 'HWID-ABC-123',
        loginAttempts: 0,
        lastLogin: null,
        createdAt: '2026-03-01T10:00:00.000Z',
      });
      expect(user.id).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
      expect(Object.keys(response.json()).sort()).toEqual(Object.keys(appUserSchema.shape).sort());
      expect(response.body).not.toContain(password.trim());
      expect(response.body).not.toMatch(/password|argon2/i);

      const row = await storedUser(user.id);
      expect(row.passwordHash.startsWith(PASSWORD_HASH_PREFIX)).toBe(true);
      expect(row.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      expect(await verifyPassword(row.passwordHash, password)).toBe(true);
      expect(await verifyPassword(row.passwordHash, password.trim())).toBe(false);
    });

    it('accepts an empty or null e-mail and no expiry or HWID', async () => {
      for (const email of ['', null, undefined]) {
        const user = await createAppUserViaApi(testApp.app, owner, application.id, {
          email,
          expiresAt: '',
          hwid: '',
        });
        expect(user).toMatchObject({ email: null, expiresAt: null, hwid: null });
      }
    });

    it("refuses a missing or blank username or password with the spec's message", async () => {
      for (const body of [
        {},
        { username: 'bob' },
        { password: 'secret' },
        { username: '   ', password: 'secret' },
        { username: 'bob', password: '   ' },
      ]) {
        await expectBadRequest(
          await request('POST', usersUrl(), body),
          'Please fill in username and password',
        );
      }
    });

    it('refuses a password shorter than END_USER_PASSWORD_MIN_LENGTH (default 8)', async () => {
      for (const password of ['x', 'seven77', '\u{1F511}'.repeat(7)]) {
        await expectBadRequest(
          await request('POST', usersUrl(), { username: 'shorty', password }),
          'password: Password must be at least 8 characters',
        );
      }
      const created = await request('POST', usersUrl(), {
        username: 'eight',
        password: '8 chars!',
      });
      expect(created.statusCode).toBe(201);
    });

    it('refuses bad e-mails, dates, oversized strings and wrong types', async () => {
      const valid = { username: 'carol', password: 'secret' };
      await expectBadRequest(
        await request('POST', usersUrl(), { ...valid, email: 'not-an-email' }),
        'email: Please enter a valid e-mail address',
      );
      for (const expiresAt of ['tomorrow', '2027-02-30T00:00:00Z', '2027-01-01', 1767225600000]) {
        await expectBadRequest(
          await request('POST', usersUrl(), { ...valid, expiresAt }),
          /^expiresAt: /,
        );
      }
      await expectBadRequest(
        await request('POST', usersUrl(), { ...valid, username: 'u'.repeat(65) }),
        'username: Username must be at most 64 characters',
      );
      await expectBadRequest(
        await request('POST', usersUrl(), { ...valid, password: 'p'.repeat(1025) }),
        'password: Password must be at most 1024 characters',
      );
      await expectBadRequest(
        await request('POST', usersUrl(), { ...valid, hwid: 'h'.repeat(257) }),
        'hwid: HWID must be at most 256 characters',
      );
      await expectBadRequest(
        await request('POST', usersUrl(), { ...valid, email: `${'e'.repeat(250)}@example.com` }),
        /^email: /,
      );
      await expectBadRequest(
        // A NUL is refused earlier, at the edge (clean-text-edge.test.ts); other controls here.
        await request('POST', usersUrl(), { ...valid, username: 'bad\u0007name' }),
        'username: Username contains invalid characters',
      );
      await expectBadRequest(
        await request('POST', usersUrl(), { username: 7, password: 'x' }),
        /^username: /,
      );
      await expectBadRequest(
        await request('POST', usersUrl(), { username: 'x', password: true }),
        /^password: /,
      );
      await expectBadRequest(await request('POST', usersUrl(), { ...valid, hwid: 12 }), /^hwid: /);
      await expectBadRequest(
        await request(
          'POST',
          usersUrl(),
          '{"username":"x",',
          withHeaders(owner, { 'content-type': 'application/json' }),
        ),
        'Malformed JSON in request body',
      );
      const carols = await testApp.database.db
        .select()
        .from(appUsers)
        .where(eq(appUsers.username, 'carol'));
      expect(carols).toEqual([]);
    });

    it('refuses a username already taken in the same application with a 409', async () => {
      await createAppUserViaApi(testApp.app, owner, application.id, { username: 'dave' });
      const duplicate = await request('POST', usersUrl(), {
        username: 'dave',
        password: 'long enough',
      });
      expect(duplicate.statusCode).toBe(409);
      expect(duplicate.json()).toEqual({
        message: 'Username already exists',
        code: 'CONFLICT',
        fields: [{ field: 'username', message: 'Username already exists' }],
      });
      const trimmedDuplicate = await request('POST', usersUrl(), {
        username: ' dave ',
        password: 'long enough',
      });
      expect(trimmedDuplicate.statusCode).toBe(409);

      // Usernames are unique per application, not globally.
      const otherApplication = await createApplicationViaApi(testApp.app, owner);
      await createAppUserViaApi(testApp.app, owner, otherApplication.id, { username: 'dave' });
    });

    it('answers an unknown application with 404 and a malformed id with 400', async () => {
      const unknown = await request('POST', '/api/applications/999999/users', {
        username: 'x',
        password: 'long enough',
      });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({ message: 'Application not found', code: 'NOT_FOUND' });
      await expectBadRequest(
        await request('POST', '/api/applications/abc/users', {
          username: 'x',
          password: 'long enough',
        }),
        'id: Invalid application id',
      );
    });
  });

  describe('GET /api/applications/:id/users', () => {
    it("lists that application's users only, newest first, without passwords", async () => {
      const listed = await createApplicationViaApi(testApp.app, owner);
      const other = await createApplicationViaApi(testApp.app, owner);
      const first = await createAppUserViaApi(testApp.app, owner, listed.id);
      clock.advance(1000);
      const second = await createAppUserViaApi(testApp.app, owner, listed.id);
      await createAppUserViaApi(testApp.app, owner, other.id);

      const response = await request('GET', `/api/applications/${listed.id}/users`);
      expect(response.statusCode).toBe(200);
      const users = appUserListSchema.parse(response.json());
      expect(users.map((user) => user.id)).toEqual([second.id, first.id]);
      expect(response.body).not.toMatch(/password|argon2/i);

      expect((await request('GET', `/api/applications/${other.id}/users`)).json()).toHaveLength(1);
      expect((await request('GET', '/api/applications/999999/users')).statusCode).toBe(404);
      await expectBadRequest(
        await request('GET', '/api/applications/1x/users'),
        'id: Invalid application id',
      );
    });
  });

  describe('GET /api/applications/:id/users: pages and search', () => {
    let paged: Application;
    // 120 users, one a minute: user_000 oldest, user_119 newest; every tenth has an e-mail.
    beforeAll(async () => {
      paged = await createApplicationViaApi(testApp.app, owner, { name: 'Many users' });
      const start = Date.parse('2026-02-01T00:00:00Z');
      await testApp.database.db.insert(appUsers).values(
        Array.from({ length: 120 }, (_, index) => ({
          applicationId: paged.id,
          username: `user_${String(index).padStart(3, '0')}`,
          email: index % 10 === 0 ? `Player${index}@Example.COM` : null,
          passwordHash: 'not-a-real-hash',
          createdAt: new Date(start + index * 60_000),
        })),
      );
    });
    const list = async (query = '') => {
      const response = await request('GET', `/api/applications/${paged.id}/users${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return {
        names: appUserListSchema.parse(response.json()).map((user) => user.username),
        total: response.headers['x-total-count'],
        page: response.headers['x-page'],
        pageSize: response.headers['x-page-size'],
      };
    };
    const name = (index: number) => `user_${String(index).padStart(3, '0')}`;

    it('answers one page of 50 by default, newest first, with the total in a header', async () => {
      const first = await list();
      expect(first).toMatchObject({ total: '120', page: '1', pageSize: '50' });
      expect(first.names).toEqual(Array.from({ length: 50 }, (_, index) => name(119 - index)));
      const third = await list('?page=3');
      expect(third.names).toEqual(Array.from({ length: 20 }, (_, index) => name(19 - index)));
      expect(await list('?page=4')).toMatchObject({ names: [], total: '120', page: '4' });
      const all = await list('?pageSize=200');
      expect(all).toMatchObject({ total: '120', pageSize: '200' });
      expect(all.names).toHaveLength(120);
      expect((await list('?page=2&pageSize=7')).names).toEqual(
        Array.from({ length: 7 }, (_, index) => name(112 - index)),
      );
    });

    it('searches usernames and e-mails, case-insensitively, as plain text', async () => {
      expect(await list('?search=USER_11')).toMatchObject({
        total: '10',
        names: Array.from({ length: 10 }, (_, index) => name(119 - index)),
      });
      expect(await list('?search=%20example.com%20&pageSize=5')).toMatchObject({
        total: '12',
        names: [name(110), name(100), name(90), name(80), name(70)],
      });
      // % and _ are not wildcards: no username has a literal "%", every one has "_0".
      expect(await list('?search=%25')).toMatchObject({ names: [], total: '0' });
      expect((await list('?search=r_0')).total).toBe('100');
      // A search's later pages, and one past its last, keep the search's total.
      expect(await list('?search=r_0&page=2&pageSize=40')).toMatchObject({
        total: '100',
        names: Array.from({ length: 40 }, (_, index) => name(59 - index)),
      });
      expect(await list('?search=r_0&page=4&pageSize=40')).toMatchObject({
        total: '100',
        names: [],
      });
      expect((await list('?search=')).total).toBe('120');
    });

    it(`counts a search's matches up to ${SEARCH_COUNT_LIMIT}, then says the total is a floor`, async () => {
      const crowded = await createApplicationViaApi(testApp.app, owner, { name: 'Crowded' });
      await testApp.database.db.execute(sql`
        insert into app_users (application_id, username, password_hash, created_at)
        select ${crowded.id}::int, 'crowd-' || i, 'not-a-real-hash',
               timestamptz '2026-03-01T00:00:00Z' + i * interval '1 second'
        from generate_series(1, ${SEARCH_COUNT_LIMIT + 1}::int) as i`);
      const page = async (query: string) => {
        const response = await request('GET', `/api/applications/${crowded.id}/users${query}`);
        expect(response.statusCode, response.body).toBe(200);
        return {
          names: appUserListSchema.parse(response.json()).map((user) => user.username),
          total: response.headers[pagingHeaders.totalCount],
          isTotalCapped: response.headers[pagingHeaders.totalCountCapped] === 'true',
        };
      };
      expect(await page('?search=crowd&pageSize=2')).toEqual({
        names: [`crowd-${SEARCH_COUNT_LIMIT + 1}`, `crowd-${SEARCH_COUNT_LIMIT}`],
        total: String(SEARCH_COUNT_LIMIT),
        isTotalCapped: true,
      });
      expect(await page('?search=crowd-999&pageSize=2')).toEqual({
        names: ['crowd-9999', 'crowd-9998'],
        total: '11', // crowd-999 and crowd-9990 to crowd-9999
        isTotalCapped: false,
      });
      expect(await page('?pageSize=1')).toMatchObject({
        total: String(SEARCH_COUNT_LIMIT + 1),
        isTotalCapped: false,
      });
    });

    it('refuses a bad page, page size or search with 400', async () => {
      for (const [query, message] of [
        ['?page=0', /^page: /],
        ['?page=-1', /^page: /],
        ['?page=abc', /^page: /],
        ['?page=1&page=2', /^page: /],
        ['?pageSize=201', 'pageSize: pageSize must be at most 200'],
        ['?pageSize=1.5', /^pageSize: /],
        [`?search=${'s'.repeat(101)}`, 'search: search must be at most 100 characters'],
        ['?search=a%07b', 'search: search contains invalid characters'],
        // NUL never reaches the schema: the edge check refuses it first.
        ['?search=a%00b', 'search: text must be valid Unicode without NUL characters'],
      ] as const) {
        await expectBadRequest(
          await request('GET', `/api/applications/${paged.id}/users${query}`),
          message,
        );
      }
    });
  });

  describe('PUT /api/applications/:appId/users/:userId', () => {
    it("applies the spec's edit body and keeps the password", async () => {
      const user = await createAppUserViaApi(testApp.app, owner, application.id, {
        email: 'old@example.com',
        hwid: 'OLD-HWID',
        expiresAt: '2026-12-31T00:00:00.000Z',
      });
      const hashBefore = (await storedUser(user.id)).passwordHash;
      clock.advance(5_000);
      const response = await request('PUT', userUrl(user.id), {
        username: 'edited',
        email: 'new@example.com',
        isActive: false,
        isPaused: true,
        hwid: 'NEW-HWID',
        expiresAt: '2030-06-01T12:30:00.000Z',
      });
      expect(response.statusCode).toBe(200);
      const updated = appUserSchema.parse(response.json());
      expect(updated).toMatchObject({
        id: user.id,
        username: 'edited',
        email: 'new@example.com',
        isActive: false,
        isPaused: true,
        hwid: 'NEW-HWID',
        expiresAt: '2030-06-01T12:30:00.000Z',
      });
      expect(Date.parse(updated.updatedAt) - Date.parse(user.updatedAt)).toBe(5_000);
      expect((await storedUser(user.id)).passwordHash).toBe(hashBefore);
    });

    it('resets the HWID on an empty value and clears the expiry and e-mail on null', async () => {
      const user = await createAppUserViaApi(testApp.app, owner, application.id, {
        email: 'someone@example.com',
        hwid: 'BOUND',
        expiresAt: '2026-12-31T00:00:00.000Z',
      });
      const updated = appUserSchema.parse(
        (
          await request('PUT', userUrl(user.id), {
            username: user.username,
            email: null,
            isActive: true,
            isPaused: false,
            hwid: '',
            expiresAt: null,
          })
        ).json(),
      );
      expect(updated).toMatchObject({ email: null, hwid: null, expiresAt: null });
    });

    it('changes only what is given, and resets the password when one is given', async () => {
      const user = await createAppUserViaApi(testApp.app, owner, application.id, {
        email: 'keep@example.com',
        hwid: 'KEEP',
      });
      const hashBefore = (await storedUser(user.id)).passwordHash;
      const paused = appUserSchema.parse(
        (await request('PUT', userUrl(user.id), { isPaused: true, password: '' })).json(),
      );
      expect(paused).toMatchObject({ ...user, isPaused: true, updatedAt: paused.updatedAt });
      expect((await storedUser(user.id)).passwordHash).toBe(hashBefore);

      const reset = await request('PUT', userUrl(user.id), { password: 'brand new secret' });
      expect(reset.statusCode).toBe(200);
      expect(reset.body).not.toContain('brand new secret');
      const hashAfter = (await storedUser(user.id)).passwordHash;
      expect(hashAfter).not.toBe(hashBefore);
      expect(hashAfter.startsWith(PASSWORD_HASH_PREFIX)).toBe(true);
      expect(await verifyPassword(hashAfter, 'brand new secret')).toBe(true);
    });

    it('refuses a new password that is short or only spaces; an empty one keeps it', async () => {
      const user = await createAppUserViaApi(testApp.app, owner, application.id);
      const hashBefore = (await storedUser(user.id)).passwordHash;
      await expectBadRequest(
        await request('PUT', userUrl(user.id), { password: '   ' }),
        'password: Password must not be only spaces',
      );
      await expectBadRequest(
        await request('PUT', userUrl(user.id), { password: 'short' }),
        'password: Password must be at least 8 characters',
      );
      expect((await storedUser(user.id)).passwordHash).toBe(hashBefore);
    });

    it('refuses a taken username with 409 and bad input with 400', async () => {
      const taken = await createAppUserViaApi(testApp.app, owner, application.id);
      const user = await createAppUserViaApi(testApp.app, owner, application.id);
      const conflict = await request('PUT', userUrl(user.id), { username: taken.username });
      expect(conflict.statusCode).toBe(409);
      expect(conflict.json()).toEqual({
        message: 'Username already exists',
        code: 'CONFLICT',
        fields: [{ field: 'username', message: 'Username already exists' }],
      });
      // Renaming to its own name is not a conflict.
      expect((await request('PUT', userUrl(user.id), { username: user.username })).statusCode).toBe(
        200,
      );

      await expectBadRequest(
        await request('PUT', userUrl(user.id), { username: '  ' }),
        'Please enter a username',
      );
      await expectBadRequest(
        await request('PUT', userUrl(user.id), { isActive: 'false' }),
        /^isActive: /,
      );
      await expectBadRequest(
        await request('PUT', userUrl(user.id), { isPaused: null }),
        /^isPaused: /,
      );
      await expectBadRequest(await request('PUT', userUrl(user.id), { email: 'nope' }), /^email: /);
      await expectBadRequest(
        await request('PUT', userUrl(user.id), { expiresAt: '31/12/2030' }),
        /^expiresAt: /,
      );
      await expectBadRequest(
        await request('PUT', userUrl(user.id), { hwid: 'h'.repeat(257) }),
        /^hwid: /,
      );
      await expectBadRequest(
        await request('PUT', userUrl(user.id), { username: 'u'.repeat(65) }),
        /^username: /,
      );
      await expectBadRequest(
        await request('PUT', userUrl(user.id), { password: 5 }),
        /^password: /,
      );
      expect(await storedUser(user.id)).toMatchObject({ username: user.username, isActive: true });
    });
  });

  describe('pause, unpause and reset-hwid', () => {
    it('sets and clears the paused flag and unbinds the device', async () => {
      const user = await createAppUserViaApi(testApp.app, owner, application.id, {
        hwid: 'DEVICE-1',
      });

      const paused = await request('POST', userUrl(user.id, '/pause'));
      expect(paused.statusCode).toBe(200);
      expect(appUserSchema.parse(paused.json())).toMatchObject({ id: user.id, isPaused: true });
      expect((await storedUser(user.id)).isPaused).toBe(true);

      const unpaused = await request('POST', userUrl(user.id, '/unpause'));
      expect(appUserSchema.parse(unpaused.json())).toMatchObject({ isPaused: false });
      expect((await storedUser(user.id)).isPaused).toBe(false);

      const reset = await request('POST', userUrl(user.id, '/reset-hwid'));
      expect(appUserSchema.parse(reset.json())).toMatchObject({ hwid: null, isActive: true });
      expect((await storedUser(user.id)).hwid).toBeNull();
    });
  });

  describe('DELETE /api/applications/:appId/users/:userId', () => {
    it('deletes the user and their client sessions', async () => {
      const user = await createAppUserViaApi(testApp.app, owner, application.id);
      await insertAppUserSession(testApp.database.db, {
        applicationId: application.id,
        appUserId: user.id,
        lastHeartbeatAt: new Date(),
      });
      const response = await request('DELETE', userUrl(user.id));
      expect(response.statusCode).toBe(200);
      expect(deletedResponseSchema.parse(response.json()).message).toBe(
        'User deleted successfully',
      );
      const [row] = await testApp.database.db
        .select()
        .from(appUsers)
        .where(eq(appUsers.id, user.id));
      expect(row).toBeUndefined();
      const sessions = await testApp.database.db
        .select()
        .from(appUserSessions)
        .where(eq(appUserSessions.appUserId, user.id));
      expect(sessions).toEqual([]);
      expect((await request('DELETE', userUrl(user.id))).statusCode).toBe(404);
    });
  });

  describe('unknown and malformed ids on every user route', () => {
    const routes = [
      ['PUT', '', { isPaused: true }],
      ['DELETE', '', undefined],
      ['POST', '/pause', undefined],
      ['POST', '/unpause', undefined],
      ['POST', '/reset-hwid', undefined],
    ] as const;

    it('answers 404 for an unknown user, a user of another application and an unknown application', async () => {
      const user = await createAppUserViaApi(testApp.app, owner, application.id);
      const sibling = await createApplicationViaApi(testApp.app, owner);
      for (const [method, action, body] of routes) {
        const unknownUser = await request(method, userUrl(randomUUID(), action), body);
        expect(unknownUser.statusCode).toBe(404);
        expect(unknownUser.json()).toEqual({ message: 'User not found', code: 'NOT_FOUND' });

        const wrongApplication = await request(
          method,
          `/api/applications/${sibling.id}/users/${user.id}${action}`,
          body,
        );
        expect(wrongApplication.json()).toEqual({ message: 'User not found', code: 'NOT_FOUND' });

        const unknownApplication = await request(
          method,
          `/api/applications/999999/users/${user.id}${action}`,
          body,
        );
        expect(unknownApplication.json()).toEqual({
          message: 'Application not found',
          code: 'NOT_FOUND',
        });
      }
      expect(await storedUser(user.id)).toMatchObject({ isPaused: false });
    });

    it('answers 400 for a non-UUID user id or a non-numeric application id', async () => {
      const user = await createAppUserViaApi(testApp.app, owner, application.id);
      for (const [method, action, body] of routes) {
        await expectBadRequest(
          await request(method, userUrl('42', action), body),
          'userId: Invalid user id',
        );
        await expectBadRequest(
          await request(method, `/api/applications/x1/users/${user.id}${action}`, body),
          'appId: Invalid application id',
        );
      }
    });
  });
});
