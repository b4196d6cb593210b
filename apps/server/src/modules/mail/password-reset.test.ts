import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clientAuthResponseSchema,
  clientMailResponseSchema,
  FORGOT_PASSWORD_ANSWER,
  PASSWORD_RESET_LINK_INVALID,
} from '@latchkey/contracts';
import {
  activityLogs,
  applications,
  endUserTokens,
  mailMessages,
  ownerAccounts,
} from '../../db/schema/index.ts';
import {
  callClientApi,
  insertAppUserWithPassword,
  insertClientApplication,
} from '../../../test/factories.ts';
import { clientOutcome, startClientSession } from '../../../test/client-calls.ts';
import { startTestAppForSuite } from '../../../test/suite-test-app.ts';
import { startSmtpReceiver, type SmtpReceiver } from '../../../test/smtp-test-receiver.ts';

const PASSWORD = 'correct horse battery staple';
const NEW_PASSWORD = 'a brand new passphrase';
const PUBLIC_ORIGIN = 'https://latchkey.example.com';

/**
 * The password reset end to end, against a real SMTP server (smtp-server, with STARTTLS and
 * authentication): password/forgot → the mail as it arrives → its link → a new password →
 * the old sessions refused, the new password accepted.
 */
describe('password reset by mail', () => {
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
      MAIL_RETRY_DELAYS_SECONDS: '1,1',
      PUBLIC_ORIGIN,
      MAIL_REQUESTS_PER_IP_PER_HOUR: '1000',
    },
    isMailDispatcherEnabled: true,
  }));
  const db = () => testApp.database.db;
  // No owner signs in here (the console's Origin is PUBLIC_ORIGIN): the owner is a row.
  let ownerAccountId: string;
  beforeAll(async () => {
    const [owner] = await db()
      .insert(ownerAccounts)
      .values({ firebaseUid: 'mail-owner', email: 'owner@acme.example', role: 'owner' })
      .returning();
    ownerAccountId = owner!.id;
  });

  const setUp = async (userOverrides: Parameters<typeof insertAppUserWithPassword>[3] = {}) => {
    const application = await insertClientApplication(testApp, ownerAccountId, {
      name: 'Acme Paint',
      version: '1.0',
      mailSenderName: 'Acme Support',
      mailReplyTo: 'help@acme.example',
    });
    const user = await insertAppUserWithPassword(db(), application.id, PASSWORD, {
      email: `pilot-${application.id}@example.com`,
      ...userOverrides,
    });
    return { application, user };
  };

  const forgot = (apiKey: string, body: unknown, remoteAddress?: string) =>
    callClientApi(testApp.app, 'password/forgot', {
      apiKey,
      body,
      ...(remoteAddress ? { remoteAddress } : {}),
    });

  const resetWith = (publicId: string, body: unknown) =>
    testApp.app.inject({
      method: 'POST',
      url: `/api/portal/${publicId}/password/reset`,
      headers: { origin: PUBLIC_ORIGIN },
      payload: body as Record<string, string>,
    });

  const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
  const linkIn = (text: string) => {
    const match =
      /https:\/\/latchkey\.example\.com\/portal\/[0-9a-f]{20}\/reset\?token=[\w-]{43}/.exec(text);
    expect(match, text).not.toBeNull();
    return match![0];
  };

  // The application's portal is off (the default): the link's page works all the same.
  it('mails a link that sets a new password once and ends every session', async () => {
    const { application, user } = await setUp();
    const sessionToken = await startClientSession(testApp.app, application, user, PASSWORD);
    const before = receiver.received.length;

    const answer = clientOutcome(
      clientMailResponseSchema,
      await forgot(application.apiKey, { username: user.username }),
    );
    expect(answer).toEqual({ success: true, message: FORGOT_PASSWORD_ANSWER, code: 'OK' });

    const [mail] = (await receiver.waitForMessages(before + 1)).slice(before);
    const { parsed } = mail!;
    expect(mail!.to).toEqual([user.email]);
    expect(mail!.isSecure).toBe(true);
    expect(parsed.subject).toBe('Choose a new password for Acme Paint');
    expect(parsed.from?.value).toEqual([
      { name: 'Acme Support', address: 'no-reply@latchkey.example.com' },
    ]);
    expect(parsed.replyTo?.value).toEqual([{ name: '', address: 'help@acme.example' }]);
    // Recorded once the server's acceptance is back (the receiver has it a moment before).
    const sentMessage = async () => {
      const [row] = await db()
        .select()
        .from(mailMessages)
        .where(eq(mailMessages.applicationId, application.id));
      return row!;
    };
    await expect.poll(async () => (await sentMessage()).status).toBe('sent');
    const message = await sentMessage();
    expect(parsed.messageId).toBe(`<${message!.id}@latchkey.example.com>`);
    expect(parsed.text).toContain(`Hello ${user.username},`);
    const link = linkIn(parsed.text!);
    expect(parsed.html).toContain(link.replaceAll('/', '&#x2F;').replace('=', '&#x3D;'));
    expect(link).toContain(`/portal/${application.portalPublicId}/reset?token=`);
    // Delivered: the row says so and keeps neither the token nor the text.
    expect(message).toMatchObject({
      status: 'sent',
      attempts: 1,
      secretsSealed: null,
      contentSealed: null,
      subject: 'Choose a new password for Acme Paint',
      lastError: null,
    });
    // The token is stored as a keyed digest only.
    const [stored] = await db()
      .select()
      .from(endUserTokens)
      .where(eq(endUserTokens.appUserId, user.id));
    expect(stored!.tokenDigest).not.toContain(tokenOf(link));

    // A password the rules refuse leaves the link usable.
    const tooShort = await resetWith(application.portalPublicId, {
      token: tokenOf(link),
      password: 'short',
    });
    expect(tooShort.statusCode, tooShort.body).toBe(400);

    const reset = await resetWith(application.portalPublicId, {
      token: tokenOf(link),
      password: NEW_PASSWORD,
    });
    expect(reset.statusCode, reset.body).toBe(204);

    // Once only.
    const again = await resetWith(application.portalPublicId, {
      token: tokenOf(link),
      password: NEW_PASSWORD,
    });
    expect(again.statusCode).toBe(410);
    expect(again.json()).toEqual({ message: PASSWORD_RESET_LINK_INVALID, code: 'LINK_INVALID' });

    // The session opened with the old password is over; the old password is refused.
    const heartbeat = await callClientApi(testApp.app, 'session/track', {
      apiKey: application.apiKey,
      body: { action: 'heartbeat', session_token: sessionToken },
    });
    expect(heartbeat.json()).toMatchObject({ success: false, code: 'SESSION_INVALID' });
    const login = (password: string) =>
      callClientApi(testApp.app, 'login', {
        apiKey: application.apiKey,
        body: { username: user.username, password, version: '1.0' },
      });
    expect(clientOutcome(clientAuthResponseSchema, await login(PASSWORD)).code).toBe(
      'INVALID_CREDENTIALS',
    );
    expect(clientOutcome(clientAuthResponseSchema, await login(NEW_PASSWORD)).code).toBe('OK');

    await testApp.app.activity.flush();
    const events = await db()
      .select({ event: activityLogs.event, metadata: activityLogs.metadata })
      .from(activityLogs)
      .where(eq(activityLogs.appUserId, user.id));
    expect(events.map((row) => row.event)).toContain('password_reset');
  });

  it("offers the same from the portal's sign-in page", async () => {
    const { application, user } = await setUp();
    await db()
      .update(applications)
      .set({ isPortalEnabled: true })
      .where(eq(applications.id, application.id));
    const info = await testApp.app.inject({ url: `/api/portal/${application.portalPublicId}` });
    expect(info.json()).toMatchObject({ canResetPassword: true });
    const before = receiver.received.length;
    const ask = (body: Record<string, string>) =>
      testApp.app.inject({
        method: 'POST',
        url: `/api/portal/${application.portalPublicId}/password/forgot`,
        headers: { origin: PUBLIC_ORIGIN },
        payload: body,
      });
    const known = await ask({ email: user.email! });
    const unknown = await ask({ username: 'nobody-here' });
    expect(known.statusCode).toBe(202);
    expect(unknown.statusCode).toBe(202);
    expect(unknown.json()).toEqual(known.json());
    expect(known.json()).toEqual({ message: FORGOT_PASSWORD_ANSWER });
    const [mail] = (await receiver.waitForMessages(before + 1)).slice(before);
    expect(mail!.to).toEqual([user.email]);
    const foreign = await testApp.app.inject({
      method: 'POST',
      url: `/api/portal/${application.portalPublicId}/password/forgot`,
      headers: { origin: 'https://evil.example' },
      payload: { username: user.username },
    });
    expect(foreign.statusCode).toBe(403);
  });

  it('finds the account by its address, in any case', async () => {
    const { application, user } = await setUp();
    const before = receiver.received.length;
    await forgot(application.apiKey, { email: user.email!.toUpperCase() });
    const [mail] = (await receiver.waitForMessages(before + 1)).slice(before);
    expect(mail!.to).toEqual([user.email]);
  });

  it('answers an unknown account exactly like a known one, and mails nothing', async () => {
    const { application, user } = await setUp();
    const known = await forgot(application.apiKey, { username: user.username });
    const unknown = await forgot(application.apiKey, { username: 'nobody-here' });
    const noAddress = await setUp({ email: null });
    const withoutAddress = await forgot(noAddress.application.apiKey, {
      username: noAddress.user.username,
    });
    for (const response of [unknown, withoutAddress]) {
      expect(response.statusCode).toBe(known.statusCode);
      expect(response.json()).toEqual(known.json());
    }
    const queued = await db()
      .select({ recipient: mailMessages.recipient })
      .from(mailMessages)
      .where(eq(mailMessages.applicationId, application.id));
    expect(queued).toEqual([{ recipient: user.email }]);
    const none = await db()
      .select()
      .from(mailMessages)
      .where(eq(mailMessages.applicationId, noAddress.application.id));
    expect(none).toEqual([]);
  });

  it('stops mailing one account past its hourly budget without changing the answer', async () => {
    const { application, user } = await setUp();
    const answers = [];
    for (let index = 0; index < 5; index += 1) {
      answers.push((await forgot(application.apiKey, { username: user.username })).json());
    }
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    const queued = await db()
      .select()
      .from(mailMessages)
      .where(eq(mailMessages.applicationId, application.id));
    // MAIL_REQUESTS_PER_ACCOUNT_PER_HOUR's default.
    expect(queued).toHaveLength(3);
  });

  it('refuses a malformed request with a 400 that names the problem', async () => {
    const { application } = await setUp();
    const both = await forgot(application.apiKey, { username: 'a', email: 'a@example.com' });
    expect(both.statusCode).toBe(400);
    expect(both.json()).toMatchObject({
      code: 'INVALID_REQUEST',
      message: 'Send either username or email',
    });
    const neither = await forgot(application.apiKey, {});
    expect(neither.statusCode).toBe(400);
  });

  it('refuses an unknown link without hashing a password', async () => {
    const { application } = await setUp();
    const response = await resetWith(application.portalPublicId, {
      token: 'A'.repeat(43),
      password: NEW_PASSWORD,
    });
    expect(response.statusCode).toBe(410);
    expect(response.json()).toMatchObject({ message: PASSWORD_RESET_LINK_INVALID });
  });
});

describe('password/forgot timing', () => {
  // Budgets out of the way: every request here does the whole work.
  const testApp = startTestAppForSuite({
    env: {
      MAIL_REQUESTS_PER_IP_PER_HOUR: '100000',
      MAIL_REQUESTS_PER_ACCOUNT_PER_HOUR: '1000',
      MAIL_REQUESTS_PER_APP_PER_HOUR: '100000',
    },
  });

  it('costs a known account what it costs an unknown one', async () => {
    const db = testApp.database.db;
    const [owner] = await db
      .insert(ownerAccounts)
      .values({ firebaseUid: 'timing-owner', email: 'owner@acme.example', role: 'owner' })
      .returning();
    const application = await insertClientApplication(testApp, owner!.id);
    const user = await insertAppUserWithPassword(db, application.id, PASSWORD, {
      email: 'known@example.com',
    });
    // CPU time of this process (the database is in it too, PGlite), not wall time: a loaded
    // machine delays a request without adding to its CPU time. The fastest of several, sides
    // alternating: other work in the process only ever adds time.
    const cpuMicrosecondsOf = async (username: string) => {
      const before = process.cpuUsage();
      const response = await callClientApi(testApp.app, 'password/forgot', {
        apiKey: application.apiKey,
        body: { username },
      });
      const used = process.cpuUsage(before);
      expect(response.json()).toMatchObject({ code: 'OK' });
      return used.user + used.system;
    };
    let known = Infinity;
    let unknown = Infinity;
    for (let index = 0; index < 15; index += 1) {
      known = Math.min(known, await cpuMicrosecondsOf(user.username));
      unknown = Math.min(unknown, await cpuMicrosecondsOf(`nobody-${index}`));
    }
    // The mails were queued (the worker is off here): the known side did its whole work.
    const queued = await db
      .select({ id: mailMessages.id })
      .from(mailMessages)
      .where(eq(mailMessages.applicationId, application.id));
    expect(queued).toHaveLength(15);
    // The same class of cost: no password hash (12 ms here), no mail rendered, one statement
    // each. The known side's statement also writes (its commit flushes the log), which
    // PGlite counts as 0.1 to 2.5 ms of this process's CPU; the budgets (3 mails an hour per
    // account, 10 requests per address) leave far too few tries to tell that apart remotely.
    expect(known).toBeLessThan(unknown * 3);
    expect(unknown).toBeLessThan(known * 3);
  });
});
