import { and, eq, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { applicationSchema, type AppUser, type Application } from '@latchkey/contracts';
import { appUserSessions, portalSessions, webhookDeliveries } from '../../db/schema/index.ts';
import { createManualClock } from '../../lib/clock.ts';
import {
  callClientApi,
  createApiTokenViaApi,
  createApplicationViaApi,
  createAppUserViaApi,
  createWebhookViaApi,
} from '../../../test/factories.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';
import { testConsoleOrigin } from '../../../test/test-app.ts';

const PASSWORD = 'correct horse battery staple';
const NEW_PASSWORD = 'a brand new passphrase';

describe('a password change or reset ends the end user\u2019s other sessions', () => {
  const clock = createManualClock(new Date('2026-07-01T10:00:00Z'));

  const testApp = startTestAppForSuite({ clock });
  const owner = signInOwnerForSuite(testApp);

  const db = () => testApp.database.db;

  /** An application with its portal on, a webhook of session ends, and one end user. */
  const setUp = async (): Promise<{ application: Application; user: AppUser; base: string }> => {
    const created = await createApplicationViaApi(testApp.app, owner);
    const updated = await testApp.app.inject({
      method: 'PUT',
      url: `/api/applications/${created.id}`,
      headers: owner.headers,
      payload: { portalEnabled: true },
    });
    const application = applicationSchema.parse(updated.json());
    await createWebhookViaApi(testApp.app, owner, {
      applicationId: application.id,
      events: ['session_end'],
    });
    const user = await createAppUserViaApi(testApp.app, owner, application.id, {
      password: PASSWORD,
    });
    return { application, user, base: `/api/portal/${application.portalPublicId}` };
  };

  /** A client session started as a program starts one, and heartbeated once (so cached). */
  const startClientSession = async (application: Application, user: AppUser) => {
    const login = await callClientApi(testApp.app, 'login', {
      apiKey: application.apiKey,
      body: { username: user.username, password: PASSWORD, version: '1.0.0' },
    });
    expect(login.json(), login.body).toMatchObject({ success: true });
    const token = (login.json() as { session_token: string }).session_token;
    const started = await track(application, {
      action: 'start',
      user_id: user.id,
      session_token: token,
    });
    expect(started.code).toBe('OK');
    expect((await heartbeat(application, token)).code).toBe('OK');
    return token;
  };
  const track = async (application: Application, body: Record<string, unknown>) =>
    (
      await callClientApi(testApp.app, 'session/track', { apiKey: application.apiKey, body })
    ).json() as {
      code: string;
    };
  const heartbeat = (application: Application, token: string) =>
    track(application, { action: 'heartbeat', session_token: token });

  const portalSignIn = async (base: string, user: AppUser, password = PASSWORD) => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: `${base}/session`,
      headers: { origin: testConsoleOrigin },
      payload: { username: user.username, password },
    });
    const cookie = response.cookies.find((each) => each.name === 'latchkey_portal');
    if (!cookie) throw new Error(`no portal cookie: ${response.body}`);
    return `latchkey_portal=${cookie.value}`;
  };
  const portalAccount = (base: string, cookie: string) =>
    testApp.app.inject({ url: `${base}/account`, headers: { cookie } });

  const openSessions = (user: AppUser) =>
    db()
      .select({ id: appUserSessions.id })
      .from(appUserSessions)
      .where(and(eq(appUserSessions.appUserId, user.id), isNull(appUserSessions.endedAt)));
  const endReasons = async (user: AppUser) =>
    (
      await db()
        .select({ reason: appUserSessions.endReason })
        .from(appUserSessions)
        .where(eq(appUserSessions.appUserId, user.id))
    ).map((row) => row.reason);
  const sessionEndDeliveries = async (user: AppUser) =>
    (await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.event, 'session_end')))
      .map((row) => row.payload as { data: { user: { id: string }; sessionEndReason: string } })
      .filter((payload) => payload.data.user.id === user.id)
      .map((payload) => payload.data.sessionEndReason);
  const portalSessionCount = async (user: AppUser) =>
    (await db().select().from(portalSessions).where(eq(portalSessions.appUserId, user.id))).length;

  it('the owner\u2019s reset in the console ends every client and portal session of the user', async () => {
    const { application, user, base } = await setUp();
    const token = await startClientSession(application, user);
    const portal = await portalSignIn(base, user);

    // An edit without a password keeps them.
    const edit = await testApp.app.inject({
      method: 'PUT',
      url: `/api/applications/${application.id}/users/${user.id}`,
      headers: owner.headers,
      payload: { email: 'kept@example.com' },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect((await heartbeat(application, token)).code).toBe('OK');
    expect((await portalAccount(base, portal)).statusCode).toBe(200);

    const reset = await testApp.app.inject({
      method: 'PUT',
      url: `/api/applications/${application.id}/users/${user.id}`,
      headers: owner.headers,
      payload: { password: NEW_PASSWORD },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(await openSessions(user)).toEqual([]);
    expect(await endReasons(user)).toEqual(['password_changed']);
    expect(await sessionEndDeliveries(user)).toEqual(['password_changed']);
    // The cached session is gone too: the program's next heartbeat is refused.
    expect((await heartbeat(application, token)).code).toBe('SESSION_INVALID');
    expect((await portalAccount(base, portal)).statusCode).toBe(401);
    expect(await portalSessionCount(user)).toBe(0);
  });

  it('a reset through the management API ends them too', async () => {
    const { application, user, base } = await setUp();
    const token = await startClientSession(application, user);
    const portal = await portalSignIn(base, user);
    const shop = await createApiTokenViaApi(testApp.app, owner);
    const reset = await testApp.app.inject({
      method: 'PATCH',
      url: `/api/manage/v1/applications/${application.id}/users/${user.id}`,
      headers: { authorization: `Bearer ${shop.token}` },
      payload: { password: NEW_PASSWORD },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(await openSessions(user)).toEqual([]);
    expect(await sessionEndDeliveries(user)).toEqual(['password_changed']);
    expect((await heartbeat(application, token)).code).toBe('SESSION_INVALID');
    expect((await portalAccount(base, portal)).statusCode).toBe(401);
  });

  it('the end user\u2019s change in the portal keeps that portal session and ends the others', async () => {
    const { application, user, base } = await setUp();
    const token = await startClientSession(application, user);
    const changing = await portalSignIn(base, user);
    const other = await portalSignIn(base, user);

    const changed = await testApp.app.inject({
      method: 'POST',
      url: `${base}/password`,
      headers: { cookie: changing, origin: testConsoleOrigin },
      payload: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD },
    });
    expect(changed.statusCode, changed.body).toBe(204);
    expect((await portalAccount(base, changing)).statusCode).toBe(200);
    expect((await portalAccount(base, other)).statusCode).toBe(401);
    expect(await portalSessionCount(user)).toBe(1);
    expect(await openSessions(user)).toEqual([]);
    expect(await endReasons(user)).toEqual(['password_changed']);
    expect(await sessionEndDeliveries(user)).toEqual(['password_changed']);
    expect((await heartbeat(application, token)).code).toBe('SESSION_INVALID');
  });
});
