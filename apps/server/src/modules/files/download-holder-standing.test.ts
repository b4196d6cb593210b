import { describe, expect, it } from 'vitest';
import {
  appFileSchema,
  clientAuthResponseSchema,
  clientFileResponseSchema,
  type AppUser,
  type Application,
} from '@latchkey/contracts';
import { createManualClock } from '../../lib/clock.ts';
import {
  callClientApi,
  createAppUserViaApi,
  createApplicationViaApi,
  createPlanViaApi,
  generateLicensesViaApi,
} from '../../../test/factories.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';
import { createDownloadToken } from './download-token.ts';
import { startClientSession } from '../../../test/client-calls.ts';

const PASSWORD = 'correct horse battery staple';
const LINK_REFUSED = {
  message: 'This download link is not valid or has expired',
  code: 'FORBIDDEN',
};
const HOLDER_REFUSED = {
  message: 'This download link was issued to an account that can no longer download',
  code: 'FORBIDDEN',
};

/**
 * A download URL issued to a live session's holder is checked against that user's standing
 * each time it is used, not only when it was issued: a pause, an expiry, a deletion or a lost
 * licence stops it at once, not when the URL expires five minutes later.
 */
describe("download URLs and their holder's standing", () => {
  const clock = createManualClock(new Date('2026-06-01T12:00:00Z'));

  const testApp = startTestAppForSuite({ clock });
  const owner = signInOwnerForSuite(testApp);

  const owned = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    testApp.app.inject({
      method,
      url,
      headers: owner.headers,
      ...(payload ? { payload } : {}),
    });
  const upload = async (application: Application, requiresSession: boolean) => {
    const query = new URLSearchParams({
      name: 'setup.exe',
      version: '1',
      requiresSession: String(requiresSession),
    });
    const response = await testApp.app.inject({
      method: 'POST',
      url: `/api/applications/${application.id}/files?${query}`,
      headers: { ...owner.headers, 'content-type': 'application/octet-stream' },
      payload: Buffer.from('the bytes'),
    });
    expect(response.statusCode, response.body).toBe(201);
    return appFileSchema.parse(response.json());
  };
  /** A user of the application with a live session, and the URL of `fileId` it asked for. */
  const sessionUrl = async (application: Application, fileId: string, user?: AppUser) => {
    const holder =
      user ??
      (await createAppUserViaApi(testApp.app, owner, application.id, { password: PASSWORD }));
    const sessionToken = await startClientSession(testApp.app, application, holder, PASSWORD);
    const issued = await callClientApi(testApp.app, 'file', {
      apiKey: application.apiKey,
      body: { file_id: fileId, session_token: sessionToken },
    });
    const { url } = clientFileResponseSchema.parse(issued.json());
    return { holder, path: new URL(url!).pathname };
  };
  const download = (path: string) => testApp.app.inject({ url: path });
  const userPath = (application: Application, user: AppUser, action = '') =>
    `/api/applications/${application.id}/users/${user.id}${action}`;

  it('stops the URL the moment its holder is paused, and serves it again once unpaused', async () => {
    const application = await createApplicationViaApi(testApp.app, owner);
    const file = await upload(application, true);
    const { holder, path } = await sessionUrl(application, file.id);
    // The user id rides in the token, the token still fits a path segment.
    const token = path.split('/').at(-1)!;
    expect(token.split('.')).toHaveLength(4);
    expect(token.length).toBeLessThanOrEqual(100);
    expect((await download(path)).body).toBe('the bytes');

    expect((await owned('POST', userPath(application, holder, '/pause'))).statusCode).toBe(200);
    const paused = await download(path);
    expect(paused.statusCode).toBe(403);
    expect(paused.json()).toEqual(HOLDER_REFUSED);
    expect(paused.body).not.toContain('the bytes');

    expect((await owned('POST', userPath(application, holder, '/unpause'))).statusCode).toBe(200);
    expect((await download(path)).body).toBe('the bytes');
  });

  it('stops it for an account expired or deleted since', async () => {
    const application = await createApplicationViaApi(testApp.app, owner);
    const file = await upload(application, true);
    const { holder, path } = await sessionUrl(application, file.id);
    const soon = new Date(clock.now().getTime() + 60_000).toISOString();
    expect(
      (await owned('PUT', userPath(application, holder), { expiresAt: soon })).statusCode,
    ).toBe(200);
    expect((await download(path)).statusCode).toBe(200);
    clock.advance(60_000);
    expect((await download(path)).json()).toEqual(HOLDER_REFUSED);

    const other = await sessionUrl(application, file.id);
    expect((await download(other.path)).statusCode).toBe(200);
    expect((await owned('DELETE', userPath(application, other.holder))).statusCode).toBe(200);
    expect((await download(other.path)).json()).toEqual(HOLDER_REFUSED);
  });

  it('stops it when a banned key takes the licence an application requires', async () => {
    const application = await createApplicationViaApi(testApp.app, owner);
    const plan = await createPlanViaApi(testApp.app, owner, application.id, { durationDays: 30 });
    const [key] = await generateLicensesViaApi(testApp.app, owner, application.id, {
      planId: plan.id,
    });
    const updated = await owned('PUT', `/api/applications/${application.id}`, {
      licenseRequired: true,
    });
    expect(updated.statusCode, updated.body).toBe(200);
    const registered = await callClientApi(testApp.app, 'register', {
      apiKey: application.apiKey,
      body: { username: 'licensed', password: PASSWORD, license_key: key!.key },
    });
    const userId = clientAuthResponseSchema.parse(registered.json()).user_id!;
    const file = await upload(application, true);
    const { path } = await sessionUrl(application, file.id, {
      id: userId,
      username: 'licensed',
    } as AppUser);
    expect((await download(path)).statusCode).toBe(200);
    const banned = await owned(
      'POST',
      `/api/applications/${application.id}/licenses/${key!.id}/ban`,
      { reason: 'chargeback' },
    );
    expect(banned.statusCode, banned.body).toBe(200);
    expect((await download(path)).json()).toEqual(HOLDER_REFUSED);
  });

  it('keeps plain URLs of files that need no session, and refuses one for a file that does', async () => {
    const application = await createApplicationViaApi(testApp.app, owner);
    const open = await upload(application, false);
    const issued = await callClientApi(testApp.app, 'file', {
      apiKey: application.apiKey,
      body: { file_id: open.id },
    });
    const { url } = clientFileResponseSchema.parse(issued.json());
    const path = new URL(url!).pathname;
    expect(path).toMatch(/\/[0-9a-f-]{36}\.\d+\.[A-Za-z0-9_-]{43}$/);
    expect((await download(path)).body).toBe('the bytes');

    // A URL bound to nobody (the form files without a session get) cannot fetch a file that
    // needs a session, even with a valid MAC: that file's URLs name their holder.
    const gated = await upload(application, true);
    const unbound = createDownloadToken({
      fileId: gated.id,
      expiresAt: new Date(clock.now().getTime() + 60_000),
      serverSecret: testApp.config.serverSecret,
      userId: null,
    });
    const refused = await download(`/api/v1/downloads/${unbound}`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual(LINK_REFUSED);
  });

  it("refuses a holder's URL with another user put in, or a form mixed with the other's MAC", async () => {
    const application = await createApplicationViaApi(testApp.app, owner);
    const file = await upload(application, true);
    const { path } = await sessionUrl(application, file.id);
    const other = await sessionUrl(application, file.id);
    const [fileId, expires, holder, mac] = path.split('/').at(-1)!.split('.') as [
      string,
      string,
      string,
      string,
    ];
    const otherHolder = other.path.split('/').at(-1)!.split('.')[2]!;
    const plainMac = createDownloadToken({
      fileId,
      expiresAt: new Date(Number(expires) * 1000),
      serverSecret: testApp.config.serverSecret,
      userId: null,
    })
      .split('.')
      .at(-1)!;
    for (const token of [
      `${fileId}.${expires}.${otherHolder}.${mac}`,
      `${fileId}.${Number(expires) + 60}.${holder}.${mac}`,
      `${fileId}.${expires}.${holder}.${plainMac.slice(0, 22)}`,
      `${fileId}.${expires}.${mac}`,
    ]) {
      const response = await download(`/api/v1/downloads/${token}`);
      expect(response.statusCode, token).toBe(403);
      expect(response.json()).toEqual(LINK_REFUSED);
    }
    // A holder's URL expires like any other.
    clock.advance(300_000);
    expect((await download(path)).json()).toEqual(LINK_REFUSED);
  });
});
