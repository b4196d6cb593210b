import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { clientVerifyResponseSchema } from '@latchkey/contracts';
import { createManualClock } from '../../lib/clock.ts';
import { callClientApi, insertAppUser, insertClientApplication } from '../../../test/factories.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';
import { clientOutcome } from '../../../test/client-calls.ts';

describe('POST /api/v1/verify', () => {
  const now = new Date('2026-04-01T12:00:00Z');
  const clock = createManualClock(now);

  const testApp = startTestAppForSuite({ clock });
  const owner = signInOwnerForSuite(testApp);

  const verify = async (apiKey: string, userId: unknown) => {
    const response = await callClientApi(testApp.app, 'verify', {
      apiKey,
      body: { user_id: userId },
    });
    return clientOutcome(clientVerifyResponseSchema, response);
  };

  it('succeeds for a user of this application in good standing', async () => {
    const application = await insertClientApplication(testApp, owner.accountId);
    const user = await insertAppUser(testApp.database.db, application.id, {
      expiresAt: new Date(now.getTime() + 1000),
    });
    expect(await verify(application.apiKey, user.id)).toEqual({
      success: true,
      message: 'User verified',
      code: 'OK',
      entitlements: [],
      subscriptions: [],
      updates_until: null,
    });
    expect(await verify(application.apiKey, user.id.toUpperCase())).toMatchObject({ code: 'OK' });
  });

  it("answers with the application's messages for paused, inactive and expired users", async () => {
    const application = await insertClientApplication(testApp, owner.accountId, {
      accountDisabledMessage: 'Disabled, says Acme',
      accountExpiredMessage: 'Expired, says Acme',
    });
    const db = testApp.database.db;
    const paused = await insertAppUser(db, application.id, { isPaused: true });
    const inactive = await insertAppUser(db, application.id, { isActive: false });
    const expired = await insertAppUser(db, application.id, { expiresAt: now });
    const disabled = { success: false, message: 'Disabled, says Acme', code: 'ACCOUNT_DISABLED' };
    expect(await verify(application.apiKey, paused.id)).toEqual(disabled);
    expect(await verify(application.apiKey, inactive.id)).toEqual(disabled);
    expect(await verify(application.apiKey, expired.id)).toEqual({
      success: false,
      message: 'Expired, says Acme',
      code: 'ACCOUNT_EXPIRED',
    });
  });

  it("reflects the owner's change of standing at once (the cache drops the user)", async () => {
    const application = await insertClientApplication(testApp, owner.accountId);
    const user = await insertAppUser(testApp.database.db, application.id, {
      expiresAt: new Date(now.getTime() + 60_000),
    });
    expect((await verify(application.apiKey, user.id)).code).toBe('OK');
    const paused = await testApp.app.inject({
      method: 'POST',
      url: `/api/applications/${application.id}/users/${user.id}/pause`,
      headers: owner.headers,
    });
    expect(paused.statusCode).toBe(200);
    expect((await verify(application.apiKey, user.id)).code).toBe('ACCOUNT_DISABLED');
    await testApp.app.inject({
      method: 'POST',
      url: `/api/applications/${application.id}/users/${user.id}/unpause`,
      headers: owner.headers,
    });
    expect((await verify(application.apiKey, user.id)).code).toBe('OK');
    clock.advance(60_000);
    expect((await verify(application.apiKey, user.id)).code).toBe('ACCOUNT_EXPIRED');
    clock.set(now);
  });

  it('drops a user edited or deleted through the owner API at once', async () => {
    const application = await insertClientApplication(testApp, owner.accountId);
    const user = await insertAppUser(testApp.database.db, application.id);
    const ownerCall = async (method: 'PUT' | 'DELETE', payload?: object) => {
      const response = await testApp.app.inject({
        method,
        url: `/api/applications/${application.id}/users/${user.id}`,
        headers: owner.headers,
        ...(payload ? { payload } : {}),
      });
      expect(response.statusCode, response.body).toBe(200);
    };
    expect((await verify(application.apiKey, user.id)).code).toBe('OK'); // now cached
    await ownerCall('PUT', { isActive: false });
    expect((await verify(application.apiKey, user.id)).code).toBe('ACCOUNT_DISABLED');
    await ownerCall('PUT', { isActive: true, expiresAt: now.toISOString() });
    expect((await verify(application.apiKey, user.id)).code).toBe('ACCOUNT_EXPIRED');
    await ownerCall('PUT', { expiresAt: null });
    expect((await verify(application.apiKey, user.id)).code).toBe('OK');
    await ownerCall('DELETE');
    expect((await verify(application.apiKey, user.id)).code).toBe('USER_NOT_FOUND');
  });

  it('sees a change made behind its back (plain SQL) once the cache entry expires', async () => {
    const application = await insertClientApplication(testApp, owner.accountId);
    const user = await insertAppUser(testApp.database.db, application.id);
    expect((await verify(application.apiKey, user.id)).code).toBe('OK');
    await testApp.database.query({
      text: 'update app_users set is_paused = true where id = $1',
      values: [user.id],
    });
    // Still the cached standing: only the owner API announces changes.
    expect((await verify(application.apiKey, user.id)).code).toBe('OK');
    clock.advance(testApp.config.clientApi.applicationCacheTtlMs + 1);
    expect((await verify(application.apiKey, user.id)).code).toBe('ACCOUNT_DISABLED');
    clock.set(now);
  });

  it("answers USER_NOT_FOUND for unknown ids, another application's user and non-UUIDs", async () => {
    const application = await insertClientApplication(testApp, owner.accountId);
    const sibling = await insertClientApplication(testApp, owner.accountId);
    const stranger = await insertAppUser(testApp.database.db, sibling.id);
    const notFound = { success: false, message: 'User not found', code: 'USER_NOT_FOUND' };
    for (const userId of [randomUUID(), stranger.id, 'not-a-uuid', '', '42', `${stranger.id} `]) {
      expect(await verify(application.apiKey, userId)).toEqual(notFound);
    }
    // The same user is fine through its own application's key.
    expect((await verify(sibling.apiKey, stranger.id)).code).toBe('OK');
  });

  it('answers 400 for a missing or non-string user_id, or a huge one', async () => {
    const application = await insertClientApplication(testApp, owner.accountId);
    for (const body of [{}, { user_id: 42 }, { user_id: null }, { user_id: ['x'] }]) {
      const response = await callClientApi(testApp.app, 'verify', {
        apiKey: application.apiKey,
        body,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ success: false, code: 'INVALID_REQUEST' });
      expect(response.json().message).toMatch(/^user_id: user_id (is required|must be a string)$/);
    }
    const huge = await callClientApi(testApp.app, 'verify', {
      apiKey: application.apiKey,
      body: { user_id: 'x'.repeat(129) },
    });
    expect(huge.statusCode).toBe(400);
  });

  it('answers APP_DISABLED when the application is inactive, even for a good user', async () => {
    const application = await insertClientApplication(testApp, owner.accountId, {
      isActive: false,
    });
    const user = await insertAppUser(testApp.database.db, application.id);
    expect(await verify(application.apiKey, user.id)).toMatchObject({
      success: false,
      code: 'APP_DISABLED',
    });
  });
});
