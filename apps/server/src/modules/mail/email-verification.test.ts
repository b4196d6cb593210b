import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appUserSchema,
  clientAuthResponseSchema,
  clientMailResponseSchema,
  clientVerifyResponseSchema,
  EMAIL_VERIFICATION_LINK_INVALID,
  USER_HAS_NO_EMAIL,
  VERIFICATION_RESEND_ANSWER,
} from '@latchkey/contracts';
import {
  activityLogs,
  appUsers,
  auditEntries,
  endUserTokens,
  mailMessages,
} from '../../db/schema/index.ts';
import {
  callClientApi,
  insertAppUserWithPassword,
  insertClientApplication,
} from '../../../test/factories.ts';
import { clientOutcome } from '../../../test/client-calls.ts';
import { ownerRequests } from '../../../test/owner-requests.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';
import { startSmtpReceiver, type SmtpReceiver } from '../../../test/smtp-test-receiver.ts';

const PASSWORD = 'correct horse battery staple';

/**
 * Verified addresses end to end, against a real SMTP server: an application that requires
 * them mails a link at registration, refuses login, key login and verify until it is followed,
 * mails a new one on request (without telling who has an account), and lets the owner vouch
 * for an address. A new device's mail rides on the same outbox.
 */
describe('verified addresses', () => {
  let receiver: SmtpReceiver;
  beforeAll(async () => {
    receiver = await startSmtpReceiver();
  });
  afterAll(() => receiver.close());

  const testApp = startTestAppForSuite(() => ({
    env: {
      SMTP_URL: receiver.url,
      MAIL_FROM: 'no-reply@latchkey.example.com',
      MAIL_POLL_INTERVAL_MS: '50',
      MAIL_REQUESTS_PER_IP_PER_HOUR: '1000',
    },
    isMailDispatcherEnabled: true,
  }));
  const owner = signInOwnerForSuite(testApp);
  const db = () => testApp.database.db;
  const request = (...args: Parameters<ReturnType<typeof ownerRequests>>) =>
    ownerRequests(testApp, owner)(...args);
  const origin = () => owner.headers.origin!;

  /** An application that requires verified addresses, switched on as the console does. */
  const setUp = async (settings: Record<string, unknown> = { requireVerifiedEmail: true }) => {
    const created = await insertClientApplication(testApp, owner.accountId, {
      name: 'Verified Paint',
      version: '1.0',
    });
    const updated = await request('PUT', `/api/applications/${created.id}`, settings);
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject(settings);
    return created;
  };
  type Application = Awaited<ReturnType<typeof setUp>>;

  const login = async (application: Application, username: string, extra: object = {}) =>
    clientOutcome(
      clientAuthResponseSchema,
      await callClientApi(testApp.app, 'login', {
        apiKey: application.apiKey,
        body: { username, password: PASSWORD, version: '1.0', ...extra },
      }),
    );
  const verify = async (application: Application, userId: string) =>
    clientOutcome(
      clientVerifyResponseSchema,
      await callClientApi(testApp.app, 'verify', {
        apiKey: application.apiKey,
        body: { user_id: userId },
      }),
    );
  const confirm = (application: Application, token: string, headers = { origin: origin() }) =>
    testApp.app.inject({
      method: 'POST',
      url: `/api/portal/${application.portalPublicId}/email/verify`,
      headers,
      payload: { token },
    });
  const nextMail = async (before: number) => (await receiver.waitForMessages(before + 1))[before]!;
  const verifyLinkIn = (text: string, application: Application) => {
    const match = new RegExp(
      `http://localhost:\\d+/portal/${application.portalPublicId}/verify\\?token=([\\w-]{43})`,
    ).exec(text);
    expect(match, text).not.toBeNull();
    return match![1]!;
  };

  it('mails a link at registration and refuses login and verify until it is followed', async () => {
    const application = await setUp();
    const before = receiver.received.length;
    const registered = clientOutcome(
      clientAuthResponseSchema,
      await callClientApi(testApp.app, 'register', {
        apiKey: application.apiKey,
        body: { username: 'vera', password: PASSWORD, email: 'Vera@Example.com' },
      }),
    );
    expect(registered).toMatchObject({
      success: true,
      code: 'OK',
      message:
        'Registration successful: open the link we mailed you to confirm your address, then log in',
    });
    const userId = registered.user_id!;

    const mail = await nextMail(before);
    // The envelope's domain arrives in lower case; the address is kept as typed.
    expect(mail.to).toEqual(['Vera@example.com']);
    expect(mail.parsed.subject).toBe('Confirm your e-mail address for Verified Paint');
    expect(mail.parsed.text).toContain('Hello vera,');
    const token = verifyLinkIn(mail.parsed.text!, application);

    const refused = await login(application, 'vera');
    expect(refused).toMatchObject({ success: false, code: 'EMAIL_NOT_VERIFIED' });
    expect(refused.session_token).toBeUndefined();
    expect(await verify(application, userId)).toMatchObject({ code: 'EMAIL_NOT_VERIFIED' });
    // A wrong password still says only that.
    expect(await login(application, 'vera', { password: 'not the password' })).toMatchObject({
      code: 'INVALID_CREDENTIALS',
    });

    // Another site's page cannot spend the link.
    const foreign = await confirm(application, token, { origin: 'https://evil.example' });
    expect(foreign.statusCode).toBe(403);

    const confirmed = await confirm(application, token);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toEqual({ username: 'vera', email: 'Vera@Example.com' });
    expect(await login(application, 'vera')).toMatchObject({ success: true, code: 'OK' });
    // Verify's cached standing heard of it at once.
    expect(await verify(application, userId)).toMatchObject({ success: true, code: 'OK' });

    // Once only.
    const again = await confirm(application, token);
    expect(again.statusCode).toBe(410);
    expect(again.json()).toMatchObject({ message: EMAIL_VERIFICATION_LINK_INVALID });

    const events = await db()
      .select({ event: activityLogs.event, metadata: activityLogs.metadata })
      .from(activityLogs)
      .where(and(eq(activityLogs.appUserId, userId), eq(activityLogs.event, 'email_verified')));
    expect(events).toEqual([{ event: 'email_verified', metadata: { via: 'link', code: 'OK' } }]);
    const users = await request('GET', `/api/applications/${application.id}/users`);
    expect(users.json()).toEqual([
      expect.objectContaining({ username: 'vera', emailVerified: true }),
    ]);
  });

  it('requires an address to register', async () => {
    const application = await setUp();
    const response = await callClientApi(testApp.app, 'register', {
      apiKey: application.apiKey,
      body: { username: 'nomail', password: PASSWORD },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'INVALID_REQUEST' });
    expect(response.json().message).toMatch(/^email: /);
  });

  it('refuses key login until the address is confirmed', async () => {
    const application = await setUp();
    const plan = await request('POST', `/api/applications/${application.id}/plans`, {
      name: 'Pro',
      durationDays: 30,
    });
    expect(plan.statusCode, plan.body).toBe(201);
    const generated = await request('POST', `/api/applications/${application.id}/licenses`, {
      planId: plan.json().id,
      count: 1,
    });
    expect(generated.statusCode, generated.body).toBe(201);
    const key = (generated.json() as { keys: { key: string }[] }).keys[0]!.key;
    // A key's first use makes an account without an address: it cannot be confirmed until
    // the owner gives it one and vouches for it.
    const keyLogin = () =>
      callClientApi(testApp.app, 'license/login', {
        apiKey: application.apiKey,
        body: { license_key: key, version: '1.0' },
      });
    expect((await keyLogin()).json()).toMatchObject({ code: 'EMAIL_NOT_VERIFIED' });
    const [keyUser] = await db()
      .select()
      .from(appUsers)
      .where(eq(appUsers.applicationId, application.id));
    const url = `/api/applications/${application.id}/users/${keyUser!.id}`;
    const noAddress = await request('POST', `${url}/verify-email`);
    expect(noAddress.statusCode).toBe(409);
    expect(noAddress.json()).toMatchObject({ message: USER_HAS_NO_EMAIL });
    expect((await request('PUT', url, { email: 'key@example.com' })).statusCode).toBe(200);
    const marked = await request('POST', `${url}/verify-email`);
    expect(marked.statusCode, marked.body).toBe(200);
    expect(appUserSchema.parse(marked.json())).toMatchObject({ emailVerified: true });
    expect((await keyLogin()).json()).toMatchObject({ success: true, code: 'OK' });

    const [audit] = await db()
      .select()
      .from(auditEntries)
      .where(eq(auditEntries.action, 'end_user_email_verified'));
    expect(audit).toMatchObject({ targetId: keyUser!.id });
    const [event] = await db()
      .select({ metadata: activityLogs.metadata })
      .from(activityLogs)
      .where(
        and(eq(activityLogs.appUserId, keyUser!.id), eq(activityLogs.event, 'email_verified')),
      );
    expect(event!.metadata).toEqual({ via: 'owner', code: 'OK' });
    // Vouched for already: answered as it is, nothing written twice.
    expect((await request('POST', `${url}/verify-email`)).statusCode).toBe(200);
    // A new address is not confirmed.
    const changed = await request('PUT', url, { email: 'other@example.com' });
    expect(changed.json()).toMatchObject({ emailVerified: false });
    expect((await keyLogin()).json()).toMatchObject({ code: 'EMAIL_NOT_VERIFIED' });
    // The same address in other letters stays confirmed.
    await request('POST', `${url}/verify-email`);
    const recased = await request('PUT', url, { email: 'OTHER@example.com' });
    expect(recased.json()).toMatchObject({ emailVerified: true });
  });

  it('mails a new link on request, answering the same for anyone', async () => {
    const application = await setUp();
    const user = await insertAppUserWithPassword(db(), application.id, PASSWORD, {
      username: 'late',
      email: 'late@example.com',
    });
    const resend = async (body: object) =>
      clientOutcome(
        clientMailResponseSchema,
        await callClientApi(testApp.app, 'email/verify/resend', {
          apiKey: application.apiKey,
          body,
        }),
      );
    const expected = { success: true, code: 'OK', message: VERIFICATION_RESEND_ANSWER };
    const queued = () =>
      db().select().from(mailMessages).where(eq(mailMessages.applicationId, application.id));

    expect(await resend({ username: 'nobody', password: PASSWORD })).toEqual(expected);
    expect(await resend({ username: 'late', password: 'wrong password' })).toEqual(expected);
    expect(await queued()).toEqual([]);

    const before = receiver.received.length;
    expect(await resend({ username: 'late', password: PASSWORD })).toEqual(expected);
    const first = verifyLinkIn((await nextMail(before)).parsed.text!, application);
    expect(await resend({ username: 'late', password: PASSWORD })).toEqual(expected);
    const second = verifyLinkIn((await nextMail(before + 1)).parsed.text!, application);
    expect(second).not.toBe(first);

    // Either link confirms; the other is spent with it.
    expect((await confirm(application, second)).statusCode).toBe(200);
    expect((await confirm(application, first)).statusCode).toBe(410);
    expect(await login(application, user.username)).toMatchObject({ code: 'OK' });
    // Confirmed: no more mail, the same answer.
    const count = (await queued()).length;
    expect(await resend({ username: 'late', password: PASSWORD })).toEqual(expected);
    expect(await queued()).toHaveLength(count);
  });

  it('confirms nothing through a link to an address the user has changed', async () => {
    const application = await setUp();
    const user = await insertAppUserWithPassword(db(), application.id, PASSWORD, {
      username: 'mover',
      email: 'old@example.com',
    });
    const before = receiver.received.length;
    await callClientApi(testApp.app, 'email/verify/resend', {
      apiKey: application.apiKey,
      body: { username: 'mover', password: PASSWORD },
    });
    const token = verifyLinkIn((await nextMail(before)).parsed.text!, application);
    const url = `/api/applications/${application.id}/users/${user.id}`;
    expect((await request('PUT', url, { email: 'new@example.com' })).statusCode).toBe(200);
    expect((await confirm(application, token)).statusCode).toBe(410);
    const [row] = await db().select().from(appUsers).where(eq(appUsers.id, user.id));
    expect(row!.emailVerifiedAt).toBeNull();
    const [spent] = await db()
      .select()
      .from(endUserTokens)
      .where(eq(endUserTokens.appUserId, user.id));
    expect(spent!.usedAt).not.toBeNull();
  });

  it('leaves applications that do not require it as they were', async () => {
    const application = await setUp({ requireVerifiedEmail: false });
    const registered = clientOutcome(
      clientAuthResponseSchema,
      await callClientApi(testApp.app, 'register', {
        apiKey: application.apiKey,
        body: { username: 'plain', password: PASSWORD },
      }),
    );
    expect(registered).toMatchObject({ success: true, message: 'Registration successful' });
    expect(await login(application, 'plain')).toMatchObject({ code: 'OK' });
  });

  it('mails the user when a second device binds under HWID lock', async () => {
    const application = await setUp({ newDeviceMail: true, hwidLockEnabled: true, maxDevices: 3 });
    await insertAppUserWithPassword(db(), application.id, PASSWORD, {
      username: 'roamer',
      email: 'roamer@example.com',
    });
    const queued = () =>
      db().select().from(mailMessages).where(eq(mailMessages.applicationId, application.id));
    // The account's first device is no news.
    expect(await login(application, 'roamer', { hwid: 'HWID-DESK' })).toMatchObject({
      code: 'OK',
    });
    expect(await queued()).toEqual([]);
    const before = receiver.received.length;
    expect(
      await login(application, 'roamer', { hwid: 'HWID-LAPTOP', device_name: 'Travel laptop' }),
    ).toMatchObject({ code: 'OK' });
    const mail = await nextMail(before);
    expect(mail.to).toEqual(['roamer@example.com']);
    expect(mail.parsed.subject).toBe('A new device signed in to your Verified Paint account');
    expect(mail.parsed.text).toMatch(
      /A new device \(Travel laptop\) was added to your Verified Paint account on \d{4}-\d\d-\d\d \d\d:\d\d UTC\./,
    );
    // A device already bound logs in again without mail.
    await login(application, 'roamer', { hwid: 'HWID-LAPTOP' });
    expect(await queued()).toHaveLength(1);
  });
});
