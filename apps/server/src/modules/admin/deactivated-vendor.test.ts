import { describe, expect, it } from 'vitest';
import { clientAuthResponseSchema, clientVerifyResponseSchema } from '@latchkey/contracts';
import {
  callClientApi,
  createApplicationViaApi,
  createAppUserViaApi,
} from '../../../test/factories.ts';
import { newGoogleAccount } from '../../../test/emulator-accounts.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';
import { signInOwner } from '../../../test/test-app.ts';
import { clientOutcome } from '../../../test/client-calls.ts';

const PASSWORD = 'correct horse battery staple';

/**
 * Deactivating a vendor locks the vendor out of the console at once, but not the
 * vendor's customers out of the vendor's software: the client API keeps serving them.
 */
describe('a deactivated vendor', () => {
  const testApp = startTestAppForSuite();
  const siteOwner = signInOwnerForSuite(testApp, {
    account: newGoogleAccount('Site Owner'),
  });

  const login = async (apiKey: string, username: string) => {
    const response = await callClientApi(testApp.app, 'login', {
      apiKey,
      body: { username, password: PASSWORD, version: '1.0.0', hwid: 'PC-1' },
    });
    return clientOutcome(clientAuthResponseSchema, response);
  };

  const verify = async (apiKey: string, userId: string) => {
    const response = await callClientApi(testApp.app, 'verify', {
      apiKey,
      body: { user_id: userId },
    });
    return clientOutcome(clientVerifyResponseSchema, response);
  };

  it('is refused by the console at once, while its application still logs in and verifies its end users', async () => {
    const vendor = await signInOwner(testApp.app, newGoogleAccount('Deactivated Vendor'));
    const application = await createApplicationViaApi(testApp.app, vendor, {
      name: 'Vendor Client',
    });
    const endUser = await createAppUserViaApi(testApp.app, vendor, application.id, {
      password: PASSWORD,
    });
    // Served once before, so the application sits in the client API's cache when it changes.
    expect(await login(application.apiKey, endUser.username)).toMatchObject({ success: true });

    const deactivation = await testApp.app.inject({
      method: 'PATCH',
      url: `/api/admin/users/${vendor.accountId}`,
      headers: siteOwner.headers,
      payload: { role: 'user', permissions: ['manage_applications'], isActive: false },
    });
    expect(deactivation.statusCode, deactivation.body).toBe(200);
    expect(deactivation.json()).toMatchObject({ isActive: false });

    for (const call of [
      { method: 'GET', url: '/api/auth/user' },
      { method: 'GET', url: '/api/applications' },
      { method: 'GET', url: `/api/applications/${application.id}/users` },
      { method: 'POST', url: '/api/applications', payload: { name: 'After deactivation' } },
      { method: 'DELETE', url: `/api/applications/${application.id}` },
    ] as const) {
      const response = await testApp.app.inject({ ...call, headers: vendor.headers });
      expect(response.statusCode, `${call.method} ${call.url}`).toBe(401);
    }

    const loggedIn = await login(application.apiKey, endUser.username);
    expect(loggedIn).toMatchObject({ success: true, user_id: endUser.id });
    expect(await verify(application.apiKey, loggedIn.user_id!)).toMatchObject({ success: true });
  });
});
