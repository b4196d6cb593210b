import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { applications } from '../../db/schema/index.ts';
import { createManualClock } from '../../lib/clock.ts';
import {
  callClientApi,
  insertAppUserWithPassword,
  insertClientApplication,
} from '../../../test/factories.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';

describe('the client API’s application cache', () => {
  const clock = createManualClock(new Date('2026-04-01T12:00:00Z'));

  const testApp = startTestAppForSuite({ clock });
  const owner = signInOwnerForSuite(testApp);

  const setUp = async () => {
    const application = await insertClientApplication(testApp, owner.accountId);
    const user = await insertAppUserWithPassword(testApp.database.db, application.id, 'pw');
    const login = (version = '1.0.0') =>
      callClientApi(testApp.app, 'login', {
        apiKey: application.apiKey,
        body: { username: user.username, password: 'pw', version },
      }).then((response) => response.json());
    const verify = () =>
      callClientApi(testApp.app, 'verify', {
        apiKey: application.apiKey,
        body: { user_id: user.id },
      });
    const updateViaOwnerApi = async (changes: Record<string, unknown>) => {
      const response = await testApp.app.inject({
        method: 'PUT',
        url: `/api/applications/${application.id}`,
        headers: owner.headers,
        payload: changes,
      });
      expect(response.statusCode).toBe(200);
    };
    return { application, user, login, verify, updateViaOwnerApi };
  };

  it("applies the owner's changes to the very next request", async () => {
    const { login, verify, updateViaOwnerApi } = await setUp();
    expect((await login()).code).toBe('OK'); // now cached

    await updateViaOwnerApi({ version: '1.1.0', versionMismatchMessage: 'Get 1.1.0 now' });
    expect(await login('1.0.0')).toMatchObject({
      code: 'VERSION_MISMATCH',
      message: 'Get 1.1.0 now',
    });
    expect((await login('1.1.0')).code).toBe('OK');

    await updateViaOwnerApi({ isActive: false });
    expect((await verify()).json().code).toBe('APP_DISABLED');
    await updateViaOwnerApi({ isActive: true });
    expect((await verify()).json().code).toBe('OK');
  });

  it('refuses the key of a deleted application at once', async () => {
    const { application, verify } = await setUp();
    expect((await verify()).statusCode).toBe(200);
    const deleted = await testApp.app.inject({
      method: 'DELETE',
      url: `/api/applications/${application.id}`,
      headers: owner.headers,
    });
    expect(deleted.statusCode).toBe(200);
    const response = await verify();
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('INVALID_API_KEY');
  });

  it('serves a change made elsewhere (another instance) within the TTL, then reloads', async () => {
    const { application, verify } = await setUp();
    expect(testApp.config.clientApi.applicationCacheTtlMs).toBe(30_000);
    expect((await verify()).json().code).toBe('OK');
    // Straight to the database: this process hears no change event.
    await testApp.database.db
      .update(applications)
      .set({ isActive: false })
      .where(eq(applications.id, application.id));
    clock.advance(29_000);
    expect((await verify()).json().code).toBe('OK');
    clock.advance(1_000);
    expect((await verify()).json().code).toBe('APP_DISABLED');
  });
});
