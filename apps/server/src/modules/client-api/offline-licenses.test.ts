import { verify } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  applicationSchema,
  clientAuthResponseSchema,
  clientLicenseCheckoutResponseSchema,
  offlineLicenseContentSchema,
  type Application,
} from '@latchkey/contracts';
import { activityLogs, appUserSessions, webhookDeliveries } from '../../db/schema/index.ts';
import { createManualClock } from '../../lib/clock.ts';
import {
  callClientApi,
  createAppUserViaApi,
  createApplicationViaApi,
  createPlanViaApi,
  createWebhookViaApi,
  grantSubscriptionViaApi,
} from '../../../test/factories.ts';
import { signInOwner } from '../../../test/test-app.ts';
import { decryptOfflineLicensePayload } from './offline-license-format.ts';
import {
  signInOwnerForSuite,
  startTestAppWithSecondConnection,
} from '../../../test/suite-test-app.ts';
import { clientOutcome, ed25519PublicKey } from '../../../test/client-calls.ts';

const HOUR = 3_600;
const DAY = 86_400;
const DAY_MS = DAY * 1000;
const PASSWORD = 'correct horse battery staple';

/** Does `signature` (base64url) verify over `message` with the application's key? */
const verifies = (application: Application, message: Buffer | string, signature: Buffer) =>
  verify(
    null,
    typeof message === 'string' ? Buffer.from(message) : message,
    ed25519PublicKey(application.signingPublicKey),
    signature,
  );

describe('client API: offline licences (license/checkout)', () => {
  const clock = createManualClock(new Date('2026-06-01T12:00:00Z'));
  const { testApp, otherConnection } = startTestAppWithSecondConnection({ clock });
  const owner = signInOwnerForSuite(testApp);

  const updateApplication = async (application: Application, settings: Record<string, unknown>) =>
    testApp.app.inject({
      method: 'PUT',
      url: `/api/applications/${application.id}`,
      headers: owner.headers,
      payload: settings,
    });
  const newApplication = async (settings: Record<string, unknown> = {}) => {
    const created = await createApplicationViaApi(testApp.app, owner);
    if (Object.keys(settings).length === 0) return created;
    const updated = await updateApplication(created, settings);
    expect(updated.statusCode, updated.body).toBe(200);
    return applicationSchema.parse(updated.json());
  };

  /** Logs a new user in and starts a session with login's token: what checkout needs. */
  const startSession = async (
    application: Application,
    options: { hwid?: string; expiresAt?: string; user?: { id: string; username: string } } = {},
  ) => {
    const user =
      options.user ??
      (await createAppUserViaApi(testApp.app, owner, application.id, {
        password: PASSWORD,
        ...(options.expiresAt ? { expiresAt: options.expiresAt } : {}),
      }));
    const login = await callClientApi(testApp.app, 'login', {
      apiKey: application.apiKey,
      body: {
        username: user.username,
        password: PASSWORD,
        version: application.version,
        ...(options.hwid ? { hwid: options.hwid } : {}),
      },
    });
    const loggedIn = clientAuthResponseSchema.parse(login.json());
    expect(loggedIn.code, login.body).toBe('OK');
    const start = await callClientApi(testApp.app, 'session/track', {
      apiKey: application.apiKey,
      body: { action: 'start', user_id: user.id, session_token: loggedIn.session_token },
    });
    expect(start.json(), start.body).toMatchObject({ code: 'OK' });
    return { user, token: loggedIn.session_token! };
  };

  const checkout = async (
    application: Application,
    body: Record<string, unknown>,
    nonce?: string,
  ) =>
    callClientApi(testApp.app, 'license/checkout', {
      apiKey: application.apiKey,
      body,
      ...(nonce ? { nonce } : {}),
    });
  const checkedOut = async (application: Application, body: Record<string, unknown>) => {
    const response = await checkout(application, body);
    expect(response.statusCode, response.body).toBe(200);
    const answer = clientLicenseCheckoutResponseSchema.parse(response.json());
    expect(answer.code, response.body).toBe('OK');
    return answer as typeof answer & { license: string; valid_until: string };
  };
  const contentOf = (license: string) => {
    const [prefix, payload] = license.split('.');
    expect(prefix).toBe('LK1');
    return offlineLicenseContentSchema.parse(
      JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')),
    );
  };
  const isoAfter = (seconds: number) =>
    new Date(clock.now().getTime() + seconds * 1000).toISOString();

  it('issues a signed licence for 7 days by default, with the user, HWID, subscriptions and terms', async () => {
    const application = await newApplication();
    const plan = await createPlanViaApi(testApp.app, owner, application.id, {
      name: 'Pro',
      entitlements: ['PRO'],
    });
    const { user, token } = await startSession(application, { hwid: 'DESK-1' });
    await grantSubscriptionViaApi(
      testApp.app,
      owner,
      { applicationId: application.id, userId: user.id },
      { planId: plan.id, expiresAt: isoAfter(60 * DAY) },
    );
    const answer = await checkedOut(application, { session_token: token });
    expect(answer.license).toMatch(/^LK1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{86}$/);
    const content = contentOf(answer.license);
    expect(content).toEqual({
      application_id: application.id,
      user_id: user.id,
      username: user.username,
      hwid: 'DESK-1',
      entitlements: ['PRO'],
      subscriptions: [{ plan: 'Pro', expires_at: isoAfter(60 * DAY) }],
      account_expires_at: null,
      updates_until: null,
      issued_at: clock.now().toISOString(),
      valid_until: isoAfter(7 * DAY),
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(answer.valid_until).toBe(content.valid_until);
    const [, payload, signature] = answer.license.split('.');
    expect(
      verifies(application, `latchkey-license-v1.${payload}`, Buffer.from(signature!, 'base64url')),
    ).toBe(true);
    // Each licence is its own: a second checkout has another id.
    const again = await checkedOut(application, { session_token: token });
    expect(contentOf(again.license).id).not.toBe(content.id);
  });

  it('takes a TTL from an hour up to the application\u2019s maxOfflineDays; outside them is a 400', async () => {
    const application = await newApplication({ maxOfflineDays: 2 });
    expect(application.maxOfflineDays).toBe(2);
    const { token } = await startSession(application);
    expect(
      (await checkedOut(application, { session_token: token, ttl_seconds: HOUR })).valid_until,
    ).toBe(isoAfter(HOUR));
    expect(
      (await checkedOut(application, { session_token: token, ttl_seconds: 2 * DAY })).valid_until,
    ).toBe(isoAfter(2 * DAY));
    // The default (7 days) is capped by the application's limit rather than refused.
    expect((await checkedOut(application, { session_token: token })).valid_until).toBe(
      isoAfter(2 * DAY),
    );
    for (const ttl of [HOUR - 1, 2 * DAY + 1, 400 * DAY, 1.5 * HOUR + 0.5, '3600', -1]) {
      const refused = await checkout(application, { session_token: token, ttl_seconds: ttl });
      expect(refused.statusCode, `${ttl}`).toBe(400);
      expect(refused.json(), `${ttl}`).toMatchObject({ success: false, code: 'INVALID_REQUEST' });
    }
  });

  it('is valid until the earliest of its TTL, the account\u2019s expiry and the subscriptions its entitlements depend on', async () => {
    const application = await newApplication();
    const shortPlan = await createPlanViaApi(testApp.app, owner, application.id, {
      name: 'Export',
      entitlements: ['EXPORT'],
    });
    const overlappingPlan = await createPlanViaApi(testApp.app, owner, application.id, {
      name: 'Pro short',
      entitlements: ['PRO'],
    });
    const longPlan = await createPlanViaApi(testApp.app, owner, application.id, {
      name: 'Pro long',
      entitlements: ['PRO'],
    });
    const expiring = await startSession(application, { expiresAt: isoAfter(3 * DAY) });
    expect((await checkedOut(application, { session_token: expiring.token })).valid_until).toBe(
      isoAfter(3 * DAY),
    );

    const { user, token } = await startSession(application);
    const grant = (planId: string, days: number) =>
      grantSubscriptionViaApi(
        testApp.app,
        owner,
        { applicationId: application.id, userId: user.id },
        { planId, expiresAt: isoAfter(days * DAY) },
      );
    // PRO is granted by a 2-day and a 20-day subscription: it holds for 20 days.
    await grant(overlappingPlan.id, 2);
    await grant(longPlan.id, 20);
    expect(
      (await checkedOut(application, { session_token: token, ttl_seconds: 10 * DAY })).valid_until,
    ).toBe(isoAfter(10 * DAY));
    // EXPORT lapses in 5 days: so does the licence that grants it.
    await grant(shortPlan.id, 5);
    const answer = await checkedOut(application, { session_token: token, ttl_seconds: 10 * DAY });
    expect(answer.valid_until).toBe(isoAfter(5 * DAY));
    expect(contentOf(answer.license).entitlements).toEqual(['EXPORT', 'PRO']);
  });

  it('answers for sessions that are not live, and users not in good standing, as heartbeat does', async () => {
    const application = await newApplication();
    const other = await newApplication();
    const { user, token } = await startSession(application);
    const codeOf = async (app: Application, body: Record<string, unknown>) => {
      const response = await checkout(app, body);
      return clientOutcome(clientLicenseCheckoutResponseSchema, response);
    };
    expect(await codeOf(application, { session_token: 'sess_short_1' })).toMatchObject({
      success: false,
      code: 'SESSION_INVALID',
    });
    expect(
      (await codeOf(application, { session_token: `sess_${'a'.repeat(32)}_1775044800` })).code,
    ).toBe('SESSION_INVALID');
    // Another application's API key does not find this application's session.
    expect((await codeOf(other, { session_token: token })).code).toBe('SESSION_INVALID');
    // A login's token that never started a session is not live.
    const loginOnly = await callClientApi(testApp.app, 'login', {
      apiKey: application.apiKey,
      body: { username: user.username, password: PASSWORD, version: application.version },
    });
    const unstarted = clientAuthResponseSchema.parse(loginOnly.json()).session_token!;
    expect((await codeOf(application, { session_token: unstarted })).code).toBe('SESSION_INVALID');

    await testApp.app.inject({
      method: 'POST',
      url: `/api/applications/${application.id}/users/${user.id}/pause`,
      headers: owner.headers,
    });
    expect((await codeOf(application, { session_token: token })).code).toBe('ACCOUNT_DISABLED');

    const ended = await startSession(application);
    await callClientApi(testApp.app, 'session/track', {
      apiKey: application.apiKey,
      body: { action: 'end', session_token: ended.token },
    });
    expect((await codeOf(application, { session_token: ended.token })).code).toBe(
      'SESSION_INVALID',
    );

    const licensed = await newApplication();
    const unlicensed = await startSession(licensed);
    expect((await updateApplication(licensed, { licenseRequired: true })).statusCode).toBe(200);
    expect((await codeOf(licensed, { session_token: unlicensed.token })).code).toBe(
      'NO_ACTIVE_SUBSCRIPTION',
    );

    const live = await startSession(other);
    expect((await updateApplication(other, { isActive: false })).statusCode).toBe(200);
    expect((await codeOf(other, { session_token: live.token })).code).toBe('APP_DISABLED');

    const missing = await checkout(application, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: 'INVALID_REQUEST' });
  });

  it('signs over a domain-separated message: a licence is no API answer, and no API answer is a licence', async () => {
    const application = await newApplication();
    const { token } = await startSession(application, { hwid: 'DESK-2' });
    const nonce = 'c2f1b6a0-7e44-4f7e-9d1b-0b8f6f7f9e11';
    const response = await checkout(application, { session_token: token }, nonce);
    const { license } = clientLicenseCheckoutResponseSchema.parse(response.json());
    const [, payload, signatureText] = license!.split('.');
    const licenseSignature = Buffer.from(signatureText!, 'base64url');
    const timestamp = response.headers['x-signature-timestamp'] as string;
    const answerSignature = Buffer.from(response.headers['x-signature-ed25519'] as string, 'hex');
    const answerMessage = Buffer.concat([
      Buffer.from(`${timestamp}.${nonce}.`),
      response.rawPayload,
    ]);

    // Each verifies where it belongs.
    expect(verifies(application, `latchkey-license-v1.${payload}`, licenseSignature)).toBe(true);
    expect(verifies(application, answerMessage, answerSignature)).toBe(true);
    // The answer's signature, offered as a licence's over any segment made of the answer.
    for (const segment of [
      payload!,
      response.rawPayload.toString('base64url'),
      answerMessage.toString('base64url'),
    ]) {
      expect(verifies(application, `latchkey-license-v1.${segment}`, answerSignature)).toBe(false);
    }
    // The licence's signature, offered as an answer's: `{timestamp}.{nonce}.{body}` always has
    // two dots where the licence's message has one, whatever a forger puts in each part.
    expect(verifies(application, answerMessage, licenseSignature)).toBe(false);
    expect(verifies(application, `latchkey-license-v1.${payload}.`, licenseSignature)).toBe(false);
    expect(verifies(application, `${timestamp}.${nonce}.${license}`, licenseSignature)).toBe(false);
    // And the encrypted domain is another one again.
    expect(verifies(application, `latchkey-license-v1e.${payload}`, licenseSignature)).toBe(false);
  });

  it('encrypts to the session\u2019s HWID: readable with it, unreadable with another', async () => {
    const application = await newApplication();
    const { user, token } = await startSession(application, { hwid: 'LAPTOP-7' });
    const answer = await checkedOut(application, { session_token: token, encrypt: true });
    const [prefix, payload, signature] = answer.license.split('.');
    expect(prefix).toBe('LK1E');
    // Encrypt, then sign: the signature checks without the HWID, in the encrypted domain only.
    expect(
      verifies(
        application,
        `latchkey-license-v1e.${payload}`,
        Buffer.from(signature!, 'base64url'),
      ),
    ).toBe(true);
    expect(
      verifies(application, `latchkey-license-v1.${payload}`, Buffer.from(signature!, 'base64url')),
    ).toBe(false);
    expect(() => JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8'))).toThrow();

    const plain = decryptOfflineLicensePayload(payload!, 'LAPTOP-7', application.signingPublicKey);
    expect(offlineLicenseContentSchema.parse(JSON.parse(plain.toString('utf8')))).toMatchObject({
      user_id: user.id,
      hwid: 'LAPTOP-7',
      valid_until: answer.valid_until,
    });
    expect(() =>
      decryptOfflineLicensePayload(payload!, 'LAPTOP-8', application.signingPublicKey),
    ).toThrow();
    // The key is the application's too: another application's public key does not open it.
    const other = await newApplication();
    expect(() =>
      decryptOfflineLicensePayload(payload!, 'LAPTOP-7', other.signingPublicKey),
    ).toThrow();
  });

  it('refuses a licence that must be bound to a HWID when the session has none (HWID_REQUIRED)', async () => {
    const application = await newApplication();
    const { token } = await startSession(application);
    const refused = await checkout(application, { session_token: token, encrypt: true });
    expect(clientLicenseCheckoutResponseSchema.parse(refused.json())).toMatchObject({
      success: false,
      code: 'HWID_REQUIRED',
    });
    expect(refused.json().message).not.toMatch(/hwid|disabled|expired|version|blocked/i);
    // Unencrypted and without HWID lock, an unbound licence (hwid null) is what was asked for.
    expect(contentOf((await checkedOut(application, { session_token: token })).license).hwid).toBe(
      null,
    );

    // Under HWID lock a licence is always bound: a session without a HWID (one started before
    // sessions kept it) gets none.
    const locked = await newApplication({ hwidLockEnabled: true });
    const session = await startSession(locked, { hwid: 'BOUND-1' });
    expect(
      contentOf((await checkedOut(locked, { session_token: session.token })).license).hwid,
    ).toBe('BOUND-1');
    await testApp.database.db
      .update(appUserSessions)
      .set({ hwid: null })
      .where(eq(appUserSessions.appUserId, session.user.id));
    expect(
      clientLicenseCheckoutResponseSchema.parse(
        (await checkout(locked, { session_token: session.token })).json(),
      ).code,
    ).toBe('HWID_REQUIRED');
  });

  it('writes a license_checkout event, and its webhook delivery, before answering', async () => {
    const application = await newApplication();
    await createWebhookViaApi(testApp.app, owner, {
      applicationId: application.id,
      events: ['license_checkout'],
    });
    const { user, token } = await startSession(application, { hwid: 'DESK-9' });
    const answer = await checkedOut(application, { session_token: token, ttl_seconds: DAY });
    const licenseId = contentOf(answer.license).id;
    // Read at once through another connection, with no flush: written before the answer.
    const events = await otherConnection.db
      .select()
      .from(activityLogs)
      .where(
        and(
          eq(activityLogs.applicationId, application.id),
          eq(activityLogs.event, 'license_checkout'),
        ),
      );
    expect(events).toMatchObject([
      {
        appUserId: user.id,
        username: user.username,
        success: true,
        metadata: {
          code: 'OK',
          licenseId,
          hwid: 'DESK-9',
          ttlSeconds: DAY,
          validUntil: answer.valid_until,
          isEncrypted: false,
        },
      },
    ]);
    expect(JSON.stringify(events)).not.toContain(answer.license.split('.')[2]);
    const deliveries = await otherConnection.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.activityLogId, events[0]!.id));
    expect(deliveries).toMatchObject([
      {
        event: 'license_checkout',
        payload: {
          type: 'license_checkout',
          data: { user: { id: user.id }, hwid: 'DESK-9', success: true },
        },
      },
    ]);
  });

  it('keeps maxOfflineDays to 1-365 (30 by default), and to the application\u2019s owner', async () => {
    const application = await newApplication();
    expect(application.maxOfflineDays).toBe(30);
    for (const days of [0, 366, 1.5, '30', null]) {
      const refused = await updateApplication(application, { maxOfflineDays: days });
      expect(refused.statusCode, `${days}`).toBe(400);
    }
    const saved = await updateApplication(application, { maxOfflineDays: 365 });
    expect(applicationSchema.parse(saved.json()).maxOfflineDays).toBe(365);

    const stranger = await signInOwner(testApp.app);
    const foreign = await testApp.app.inject({
      method: 'PUT',
      url: `/api/applications/${application.id}`,
      headers: stranger.headers,
      payload: { maxOfflineDays: 1 },
    });
    expect(foreign.statusCode).toBe(404);
    const { token } = await startSession(application);
    expect(
      (await checkedOut(application, { session_token: token, ttl_seconds: 365 * DAY })).valid_until,
    ).toBe(isoAfter(365 * DAY));
  });

  it('cannot recall a licence once issued: the user paused still holds one that verifies', async () => {
    const application = await newApplication();
    const { user, token } = await startSession(application);
    const answer = await checkedOut(application, { session_token: token });
    await testApp.app.inject({
      method: 'POST',
      url: `/api/applications/${application.id}/users/${user.id}/pause`,
      headers: owner.headers,
    });
    const [, payload, signature] = answer.license.split('.');
    expect(
      verifies(application, `latchkey-license-v1.${payload}`, Buffer.from(signature!, 'base64url')),
    ).toBe(true);
    expect(new Date(answer.valid_until).getTime() - clock.now().getTime()).toBe(7 * DAY_MS);
  });
});
