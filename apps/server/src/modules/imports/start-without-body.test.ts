import { describe, expect, it } from 'vitest';
import { importProgressSchema } from '@latchkey/contracts';
import { createApiTokenViaApi, insertClientApplication } from '../../../test/factories.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';

/** A users export of KeyAuth's panel with one user and no levels to map. */
const usersFile = JSON.stringify({
  users: [{ username: 'dana', email: null, password: null, hwid: null, banned: null, ip: null }],
  subs: [],
});

/**
 * Starting an import maps KeyAuth levels to plans; a users export with no levels needs no map,
 * so a start without any body is a start with none mapped, from the console and from the
 * management API alike, not a 400 for a missing body.
 */
describe('starting an import without a body', () => {
  const testApp = startTestAppForSuite();
  const owner = signInOwnerForSuite(testApp);

  const previewedImport = async (applicationId: number) => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: `/api/applications/${applicationId}/imports?source=keyauth&kind=users`,
      headers: { ...owner.headers, 'content-type': 'application/octet-stream' },
      payload: Buffer.from(usersFile),
    });
    expect(response.statusCode, response.body).toBe(201);
    return importProgressSchema.parse(response.json()).id;
  };

  it('starts from the console', async () => {
    const application = await insertClientApplication(testApp, owner.accountId);
    const importId = await previewedImport(application.id);
    const started = await testApp.app.inject({
      method: 'POST',
      url: `/api/applications/${application.id}/imports/${importId}/start`,
      headers: owner.headers,
    });
    expect(started.statusCode, started.body).toBe(202);
    expect(importProgressSchema.parse(started.json()).id).toBe(importId);
  });

  it('starts through the management API', async () => {
    const application = await insertClientApplication(testApp, owner.accountId);
    const importId = await previewedImport(application.id);
    const token = await createApiTokenViaApi(testApp.app, owner, {
      scopes: ['users:read', 'users:write'],
    });
    const started = await testApp.app.inject({
      method: 'POST',
      url: `/api/manage/v1/applications/${application.id}/imports/${importId}/start`,
      headers: { authorization: `Bearer ${token.token}` },
    });
    expect(started.statusCode, started.body).toBe(202);
    expect(importProgressSchema.parse(started.json()).id).toBe(importId);
  });
});
