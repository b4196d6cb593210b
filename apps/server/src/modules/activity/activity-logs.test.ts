import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityLogListSchema, ACTIVITY_LOG_LIST_LIMIT } from '@latchkey/contracts';
import { activityLogs, appUsers } from '../../db/schema/index.ts';
import { createManualClock } from '../../lib/clock.ts';
import {
  callClientApi,
  insertActivityLog,
  insertAppUserWithPassword,
  insertClientApplication,
} from '../../../test/factories.ts';
import {
  createTestApp,
  signInOwner,
  type SignedInOwner,
  type TestApp,
} from '../../../test/test-app.ts';

describe('GET /api/activity-logs', () => {
  let testApp: TestApp;
  let owner: SignedInOwner;
  let otherOwner: SignedInOwner;
  const clock = createManualClock(new Date('2026-04-01T12:00:00Z'));

  beforeAll(async () => {
    testApp = await createTestApp({ clock });
    owner = await signInOwner(testApp.app);
    otherOwner = await signInOwner(testApp.app);
  });
  afterAll(() => testApp.close());

  const list = async (who: SignedInOwner, query = '') => {
    const response = await testApp.app.inject({
      url: `/api/activity-logs${query}`,
      headers: who.headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    return activityLogListSchema.parse(response.json());
  };

  it('shows what the client API recorded, newest first, with the fields of spec doc 2 §3', async () => {
    const application = await insertClientApplication(testApp, owner.accountId, {
      name: 'Logged App',
    });
    const user = await insertAppUserWithPassword(testApp.database.db, application.id, 'pw');
    const login = (password: string, hwid?: string) =>
      callClientApi(testApp.app, 'login', {
        apiKey: application.apiKey,
        body: { username: user.username, password, version: '1.0.0', hwid },
        remoteAddress: '127.0.0.3',
      });
    await login('wrong');
    clock.advance(1000);
    await login('pw', 'PC-7');
    await testApp.app.activity.flush();

    const logs = await list(owner, `?applicationId=${application.id}`);
    expect(logs).toEqual([
      {
        id: expect.any(Number),
        event: 'user_login',
        success: true,
        applicationId: application.id,
        application: { name: 'Logged App' },
        appUser: { username: user.username },
        username: user.username,
        ipAddress: '127.0.0.3',
        errorMessage: null,
        metadata: { code: 'OK', hwid: 'PC-7', version: '1.0.0' },
        createdAt: '2026-04-01T12:00:01.000Z',
      },
      {
        id: expect.any(Number),
        event: 'login_failed',
        success: false,
        applicationId: application.id,
        application: { name: 'Logged App' },
        appUser: { username: user.username },
        username: user.username,
        ipAddress: '127.0.0.3',
        errorMessage: 'Invalid username or password',
        metadata: { code: 'INVALID_CREDENTIALS', version: '1.0.0' },
        createdAt: '2026-04-01T12:00:00.000Z',
      },
    ]);
    expect(logs[0]!.id).toBeGreaterThan(logs[1]!.id);

    // A deleted user's logs remain, with the username as sent and no appUser.
    await testApp.database.db.delete(appUsers).where(eq(appUsers.id, user.id));
    const afterDelete = await list(owner, `?applicationId=${application.id}`);
    expect(afterDelete.map((log) => [log.appUser, log.username])).toEqual([
      [null, user.username],
      [null, user.username],
    ]);
  });

  it("lists every application's logs of the owner, and only theirs", async () => {
    const fresh = await signInOwner(testApp.app);
    const db = testApp.database.db;
    const first = await insertClientApplication(testApp, fresh.accountId, { name: 'First' });
    const second = await insertClientApplication(testApp, fresh.accountId, { name: 'Second' });
    const foreign = await insertClientApplication(testApp, otherOwner.accountId);
    const at = (seconds: number) => new Date(Date.UTC(2026, 3, 2, 0, 0, seconds));
    await insertActivityLog(db, {
      applicationId: first.id,
      event: 'user_login',
      success: true,
      createdAt: at(1),
    });
    await insertActivityLog(db, {
      applicationId: second.id,
      event: 'login_failed',
      success: false,
      createdAt: at(3),
    });
    await insertActivityLog(db, {
      applicationId: first.id,
      event: 'user_register',
      success: true,
      createdAt: at(2),
    });
    await insertActivityLog(db, {
      applicationId: foreign.id,
      event: 'user_login',
      success: true,
      createdAt: at(4),
    });

    const all = await list(fresh);
    expect(all.map((log) => [log.application.name, log.event])).toEqual([
      ['Second', 'login_failed'],
      ['First', 'user_register'],
      ['First', 'user_login'],
    ]);
    expect(all.every((log) => log.metadata && typeof log.metadata === 'object')).toBe(true);
    expect((await list(fresh, `?applicationId=${first.id}`)).map((log) => log.event)).toEqual([
      'user_register',
      'user_login',
    ]);
    expect(await list(fresh, '?applicationId=')).toHaveLength(3);

    // Another owner's application is a 404, exactly like one that does not exist.
    for (const id of [foreign.id, 2_000_000_000]) {
      const response = await testApp.app.inject({
        url: `/api/activity-logs?applicationId=${id}`,
        headers: fresh.headers,
      });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: 'Application not found', code: 'NOT_FOUND' });
    }
    const malformed = await testApp.app.inject({
      url: '/api/activity-logs?applicationId=abc',
      headers: fresh.headers,
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({
      message: 'applicationId: Invalid application id',
      code: 'BAD_REQUEST',
    });
  });

  it(`returns at most the newest ${ACTIVITY_LOG_LIST_LIMIT}`, async () => {
    const fresh = await signInOwner(testApp.app);
    const application = await insertClientApplication(testApp, fresh.accountId);
    const base = Date.UTC(2026, 4, 1);
    await testApp.database.db.insert(activityLogs).values(
      Array.from({ length: ACTIVITY_LOG_LIST_LIMIT + 5 }, (_, index) => ({
        applicationId: application.id,
        event: 'user_login',
        success: true,
        username: `user-${index}`,
        createdAt: new Date(base + index * 1000),
      })),
    );
    const logs = await list(fresh);
    expect(logs).toHaveLength(ACTIVITY_LOG_LIST_LIMIT);
    expect(logs[0]!.username).toBe(`user-${ACTIVITY_LOG_LIST_LIMIT + 4}`);
    expect(logs.at(-1)!.username).toBe('user-5');
  });
});
