import { describe, expect, it } from 'vitest';
import { LISTENER_NAME } from '../../db/client.ts';
import {
  callClientApi,
  createPlanViaApi,
  generateLicensesViaApi,
  insertAppUserWithPassword,
  insertClientApplication,
} from '../../../test/factories.ts';
import type { TestApp } from '../../../test/test-app.ts';
import { signInOwnerForSuite, startTwoInstancesForSuite } from '../../../test/suite-test-app.ts';

const isPostgres = Boolean(process.env.TEST_DATABASE_URL);

/**
 * How long a change may take to reach the other instance before the test fails. Not a promise
 * of speed (bench/revocation-window.mjs measures that): the caches here keep entries for an
 * hour, so a refusal seen at all before then can only have come from the notification, and a
 * margin this wide cannot be broken by a loaded CI machine.
 */
const PROPAGATION_MARGIN_MS = 10_000;

/** Polls until `check` holds, for at most `withinMs`; answers how long it took. */
async function within(withinMs: number, check: () => Promise<boolean>): Promise<number> {
  const startedAt = Date.now();
  for (;;) {
    if (await check()) return Date.now() - startedAt;
    if (Date.now() - startedAt > withinMs) throw new Error(`not within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

// Two instances of the server on one database: the owner works through one, end users are
// answered by the other, whose application cache would otherwise keep a stale copy for
// CLIENT_API_CACHE_TTL_SECONDS (an hour here, so only the notification can explain a refusal).
describe('application changes across instances', () => {
  const { database, first, second } = startTwoInstancesForSuite({
    env: { CLIENT_API_CACHE_TTL_SECONDS: '3600' },
  });
  const owner = signInOwnerForSuite(first);

  const setUp = async () => {
    const application = await insertClientApplication(first, owner.accountId);
    const user = await insertAppUserWithPassword(database.db, application.id, 'pw');
    const verifyOnSecond = () =>
      callClientApi(second.app, 'verify', {
        apiKey: application.apiKey,
        body: { user_id: user.id },
      });
    const changeOnFirst = async (method: 'PUT' | 'DELETE', payload?: object) => {
      const response = await first.app.inject({
        method,
        url: `/api/applications/${application.id}`,
        headers: owner.headers,
        ...(payload ? { payload } : {}),
      });
      expect(response.statusCode).toBe(200);
    };
    const changeUserOnFirst = async (action: 'pause' | 'unpause') => {
      const response = await first.app.inject({
        method: 'POST',
        url: `/api/applications/${application.id}/users/${user.id}/${action}`,
        headers: owner.headers,
      });
      expect(response.statusCode).toBe(200);
    };
    return { application, user, verifyOnSecond, changeOnFirst, changeUserOnFirst };
  };

  it('a pause made through one instance is enforced by the other, by notification', async () => {
    const { verifyOnSecond, changeOnFirst } = await setUp();
    expect((await verifyOnSecond()).json().code).toBe('OK'); // cached by the second instance

    await changeOnFirst('PUT', { isActive: false });
    await within(
      PROPAGATION_MARGIN_MS,
      async () => (await verifyOnSecond()).json().code === 'APP_DISABLED',
    );

    await changeOnFirst('PUT', { isActive: true });
    await within(PROPAGATION_MARGIN_MS, async () => (await verifyOnSecond()).json().code === 'OK');
  });

  it("an end user's pause made through one instance is enforced by the other, by notification", async () => {
    const { verifyOnSecond, changeUserOnFirst } = await setUp();
    expect((await verifyOnSecond()).json().code).toBe('OK'); // standing cached by the second

    await changeUserOnFirst('pause');
    await within(
      PROPAGATION_MARGIN_MS,
      async () => (await verifyOnSecond()).json().code === 'ACCOUNT_DISABLED',
    );
    await changeUserOnFirst('unpause');
    await within(PROPAGATION_MARGIN_MS, async () => (await verifyOnSecond()).json().code === 'OK');
  });

  it("an end user's pause is refused by the other instance as soon as the owner's answer is back", async () => {
    // The owner's answer waits until every other listening instance has acknowledged the
    // pause, which each does only after dropping what it cached. The audit saw half of 30
    // heartbeats sent within a millisecond of the answer accepted before.
    const { verifyOnSecond, changeUserOnFirst } = await setUp();
    for (let run = 0; run < 10; run += 1) {
      expect((await verifyOnSecond()).json().code).toBe('OK'); // standing cached by the second
      await changeUserOnFirst('pause');
      expect((await verifyOnSecond()).json().code).toBe('ACCOUNT_DISABLED');
      await changeUserOnFirst('unpause');
      expect((await verifyOnSecond()).json().code).toBe('OK');
    }
  });

  it("a client's redemption through one instance is verified by the other as soon as its answer is back", async () => {
    // The redemption's own statement announces it; its answer waits for the acknowledgement,
    // as an owner's change does, so verify on the other instance never answers from the
    // standing it cached before.
    const { application } = await setUp();
    const plan = await createPlanViaApi(first.app, owner, application.id, {
      durationDays: 30,
      entitlements: ['PRO'],
    });
    const keys = await generateLicensesViaApi(first.app, owner, application.id, {
      planId: plan.id,
      count: 5,
    });
    for (const { key } of keys) {
      const user = await insertAppUserWithPassword(database.db, application.id, 'pw');
      const verifyProOnSecond = async () =>
        (
          await callClientApi(second.app, 'verify', {
            apiKey: application.apiKey,
            body: { user_id: user.id, entitlements: ['PRO'] },
          })
        ).json().code as string;
      expect(await verifyProOnSecond()).toBe('ENTITLEMENTS_MISSING'); // cached by the second
      const redeemed = await callClientApi(first.app, 'license/redeem', {
        apiKey: application.apiKey,
        body: { username: user.username, password: 'pw', license_key: key },
      });
      expect(redeemed.json().code, redeemed.body).toBe('OK');
      expect(await verifyProOnSecond()).toBe('OK');
    }
  });

  it('a bulk pause through one instance is refused by the other as soon as the answer is back', async () => {
    // 250 users: their ids travel in three NOTIFYs (at most 100 ids each, under 8,000 bytes).
    const { application, user } = await setUp();
    const others = await Promise.all(
      Array.from({ length: 249 }, () =>
        insertAppUserWithPassword(database.db, application.id, 'pw'),
      ),
    );
    const verifyUserOnSecond = (userId: string) =>
      callClientApi(second.app, 'verify', {
        apiKey: application.apiKey,
        body: { user_id: userId },
      });
    const everyone = [user, ...others].map((one) => one.id);
    const codesOnSecond = async () =>
      new Set(
        await Promise.all(
          everyone.map(async (userId) => (await verifyUserOnSecond(userId)).json().code as string),
        ),
      );
    expect(await codesOnSecond()).toEqual(new Set(['OK'])); // all cached by the second

    const response = await first.app.inject({
      method: 'POST',
      url: `/api/applications/${application.id}/users/bulk`,
      headers: owner.headers,
      payload: {
        operationId: crypto.randomUUID(),
        action: 'pause',
        userIds: everyone,
      },
    });
    expect(response.json()).toMatchObject({ total: 250, done: 250 });
    expect(await codesOnSecond()).toEqual(new Set(['ACCOUNT_DISABLED']));
  });

  it('a deletion made through one instance is enforced by the other, by notification', async () => {
    const { verifyOnSecond, changeOnFirst } = await setUp();
    expect((await verifyOnSecond()).statusCode).toBe(200);

    await changeOnFirst('DELETE');
    await within(PROPAGATION_MARGIN_MS, async () => (await verifyOnSecond()).statusCode === 401);
  });

  it('answers a heartbeat of a deactivated application APP_DISABLED on every instance, even before the news arrives', async () => {
    const { application, user, verifyOnSecond, changeOnFirst } = await setUp();
    const track = async (instance: TestApp, body: Record<string, string>) =>
      (
        await callClientApi(instance.app, 'session/track', { apiKey: application.apiKey, body })
      ).json().code as string;
    const startSession = async () => {
      const login = await callClientApi(first.app, 'login', {
        apiKey: application.apiKey,
        body: { username: user.username, password: 'pw', version: application.version },
      });
      const token = login.json().session_token as string;
      expect(await track(first, { action: 'start', user_id: user.id, session_token: token })).toBe(
        'OK',
      );
      return { action: 'heartbeat', session_token: token };
    };

    // The window: the application was deactivated (and its sessions ended, as the owner's
    // change does in one transaction) but the second instance has not heard of it yet: its
    // cached application is still active, and the session it reads is ended.
    const heartbeat = await startSession();
    expect((await verifyOnSecond()).json().code).toBe('OK'); // the application cached there
    await database.query({
      text: 'update applications set is_active = false where id = $1',
      values: [application.id],
    });
    await database.query({
      text: 'update app_user_sessions set ended_at = now() where application_id = $1',
      values: [application.id],
    });
    expect(await track(second, heartbeat)).toBe('APP_DISABLED');
    expect(await track(second, { ...heartbeat, action: 'end' })).toBe('APP_DISABLED');

    // Through the owner API: the instance that made the change, and the other once told.
    await database.query({
      text: 'update applications set is_active = true where id = $1',
      values: [application.id],
    });
    await changeOnFirst('PUT', { isActive: true });
    const again = await startSession();
    expect(await track(second, again)).toBe('OK'); // the session cached there
    await changeOnFirst('PUT', { isActive: false });
    expect(await track(first, again)).toBe('APP_DISABLED');
    await within(PROPAGATION_MARGIN_MS, async () => (await track(second, again)) !== 'OK');
    expect(await track(second, again)).toBe('APP_DISABLED');
  });

  it.runIf(isPostgres)(
    'drops every cached application when its listening connection is lost, then listens again',
    async () => {
      const { application, verifyOnSecond, changeOnFirst } = await setUp();
      expect((await verifyOnSecond()).json().code).toBe('OK'); // cached by the second instance
      // A change whose notification is lost: the second instance cannot know of it...
      await database.query({
        text: 'update applications set is_active = false where id = $1',
        values: [application.id],
      });
      expect((await verifyOnSecond()).json().code).toBe('OK');

      // ...until its listening connection goes (an operator's pg_terminate_backend, a
      // failover): then it drops what it cached, since it may have missed anything.
      await database.query({
        text: 'select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1 and datname = current_database()',
        values: [LISTENER_NAME],
      });
      await within(
        PROPAGATION_MARGIN_MS,
        async () => (await verifyOnSecond()).json().code === 'APP_DISABLED',
      );

      // Listening again (both instances' listeners are back), it hears changes again.
      await within(PROPAGATION_MARGIN_MS, async () => {
        const { rows } = await database.query({
          text: 'select count(*)::int as listeners from pg_stat_activity where application_name = $1 and datname = current_database()',
          values: [LISTENER_NAME],
        });
        return rows[0]?.listeners === 2;
      });
      await changeOnFirst('PUT', { isActive: true });
      await within(
        PROPAGATION_MARGIN_MS,
        async () => (await verifyOnSecond()).json().code === 'OK',
      );
    },
  );
});
