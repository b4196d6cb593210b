import { describe, expect, it } from 'vitest';
import { appUserSchema, clientAuthResponseSchema, deviceListSchema } from '@latchkey/contracts';
import { createManualClock } from '../../lib/clock.ts';
import {
  callClientApi,
  insertAppUserWithPassword,
  insertClientApplication,
} from '../../../test/factories.ts';
import { clientOutcome } from '../../../test/client-calls.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';

const PASSWORD = 'correct horse battery staple';

/**
 * The Edit User dialog saves the account without a HWID: the Devices section releases devices
 * one by one, and a save must not bind or release any of them.
 */
describe('updating an end user without a hwid', () => {
  const clock = createManualClock(new Date('2026-06-01T12:00:00Z'));
  const testApp = startTestAppForSuite({ clock });
  const owner = signInOwnerForSuite(testApp);

  const login = async (apiKey: string, username: string, hwid: string) => {
    const response = await callClientApi(testApp.app, 'login', {
      apiKey,
      body: { username, password: PASSWORD, version: '1.0.0', hwid },
    });
    return clientOutcome(clientAuthResponseSchema, response);
  };

  const ownerCall = (method: 'GET' | 'PUT', url: string, payload?: object) =>
    testApp.app.inject({ method, url, headers: owner.headers, payload });

  it('leaves every bound device as it was, whatever else the save changes', async () => {
    const application = await insertClientApplication(testApp, owner.accountId, {
      hwidLockEnabled: true,
      maxDevices: 3,
    });
    const user = await insertAppUserWithPassword(testApp.database.db, application.id, PASSWORD);
    for (const hwid of ['PC-A', 'PC-B']) {
      expect((await login(application.apiKey, user.username, hwid)).code).toBe('OK');
      clock.advance(1_000);
    }
    const userUrl = `/api/applications/${application.id}/users/${user.id}`;
    const devicesBefore = deviceListSchema.parse(
      (await ownerCall('GET', `${userUrl}/devices`)).json(),
    );
    expect(devicesBefore.map(({ hwid }) => hwid)).toEqual(['PC-A', 'PC-B']);

    // The dialog's body: every account field and a status, and no hwid.
    const saved = await ownerCall('PUT', userUrl, {
      username: user.username,
      email: 'pilot@example.com',
      isActive: true,
      isPaused: true,
      expiresAt: '2027-01-01T00:00:00.000Z',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(appUserSchema.parse(saved.json())).toMatchObject({
      hwid: 'PC-A',
      deviceCount: 2,
      isPaused: true,
    });
    const devicesAfter = deviceListSchema.parse(
      (await ownerCall('GET', `${userUrl}/devices`)).json(),
    );
    expect(devicesAfter).toEqual(devicesBefore);

    // Disabling alone (no isPaused, no hwid) keeps them too.
    const disabled = await ownerCall('PUT', userUrl, { isActive: false });
    expect(appUserSchema.parse(disabled.json())).toMatchObject({
      isActive: false,
      isPaused: true,
      deviceCount: 2,
    });
    expect(deviceListSchema.parse((await ownerCall('GET', `${userUrl}/devices`)).json())).toEqual(
      devicesBefore,
    );
  });
});
