import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  MAIL_RESEND_NOT_FAILED,
  USER_HAS_NO_EMAIL,
  mailTemplateSchema,
  renderedMailSchema,
  mailMessageSchema,
  openedMailMessageSchema,
} from '@latchkey/contracts';
import { auditEntries, mailMessages } from '../../db/schema/index.ts';
import { sealMailSecrets } from './mail-secrets.ts';
import {
  callClientApi,
  createPlanViaApi,
  generateLicensesViaApi,
  insertAppUser,
  insertClientApplication,
} from '../../../test/factories.ts';
import { ownerRequests } from '../../../test/owner-requests.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';

/**
 * The mail log, on the development default: no SMTP_URL, so every message goes to the local
 * mailbox, which the log opens as it would be read (reset link included).
 */
describe('the mail log', () => {
  const testApp = startTestAppForSuite({
    env: { MAIL_POLL_INTERVAL_MS: '50' },
    isMailDispatcherEnabled: true,
  });
  const owner = signInOwnerForSuite(testApp);
  const db = () => testApp.database.db;
  const request = (...args: Parameters<ReturnType<typeof ownerRequests>>) =>
    ownerRequests(testApp, owner)(...args);

  const setUp = async () => {
    const application = await insertClientApplication(testApp, owner.accountId, {
      name: 'Mailbox App',
    });
    const users = [];
    for (const name of ['alice', 'bob', 'carol']) {
      users.push(
        await insertAppUser(db(), application.id, { username: name, email: `${name}@example.com` }),
      );
    }
    for (const user of users) {
      await callClientApi(testApp.app, 'password/forgot', {
        apiKey: application.apiKey,
        body: { username: user.username },
      });
    }
    const rows = () =>
      db().select().from(mailMessages).where(eq(mailMessages.applicationId, application.id));
    await expect.poll(async () => (await rows()).every((row) => row.status === 'sent')).toBe(true);
    return { application, users };
  };

  it('lists, searches, filters and opens what the local mailbox received', async () => {
    const { application } = await setUp();
    const url = `/api/applications/${application.id}/mail`;
    const all = await request('GET', `${url}?pageSize=2`);
    expect(all.statusCode, all.body).toBe(200);
    expect(all.headers['x-total-count']).toBe('3');
    const page = mailMessageSchema.array().parse(all.json());
    expect(page).toHaveLength(2);
    expect(page[0]).toMatchObject({
      kind: 'password_reset',
      status: 'sent',
      attempts: 1,
      subject: 'Choose a new password for Mailbox App',
      canOpen: true,
    });

    const searched = mailMessageSchema
      .array()
      .parse((await request('GET', `${url}?search=BOB`)).json());
    expect(searched.map((message) => message.to)).toEqual(['bob@example.com']);
    const failed = await request('GET', `${url}?status=failed`);
    expect(failed.json()).toEqual([]);
    expect((await request('GET', `${url}?status=lost`)).statusCode).toBe(400);

    const opened = openedMailMessageSchema.parse(
      (await request('GET', `${url}/${searched[0]!.id}`)).json(),
    );
    expect(opened.content?.subject).toBe('Choose a new password for Mailbox App');
    expect(opened.content?.text).toContain('Hello bob,');
    expect(opened.content?.text).toMatch(
      new RegExp(`/portal/${application.portalPublicId}/reset\\?token=[\\w-]{43}`),
    );
    // The row itself holds no readable text or token.
    const [row] = await db().select().from(mailMessages).where(eq(mailMessages.id, opened.id));
    expect(JSON.stringify(row)).not.toContain('Hello bob');
    expect(row!.secretsSealed).toBeNull();
  });

  it('sends a failed message again, and only a failed one', async () => {
    const { application } = await setUp();
    const [message] = await db()
      .select()
      .from(mailMessages)
      .where(eq(mailMessages.applicationId, application.id))
      .limit(1);
    const resendUrl = `/api/applications/${application.id}/mail/${message!.id}/resend`;
    const refused = await request('POST', resendUrl);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ message: MAIL_RESEND_NOT_FAILED });

    // As a permanent refusal leaves it: failed, its reason, its link's token still sealed.
    await db()
      .update(mailMessages)
      .set({
        status: 'failed',
        lastError: '550 No such mailbox',
        secretsSealed: sealMailSecrets({ token: 'T'.repeat(43) }, testApp.config.serverSecret),
      })
      .where(eq(mailMessages.id, message!.id));
    const resent = await request('POST', resendUrl);
    expect(resent.statusCode, resent.body).toBe(200);
    expect(resent.json()).toMatchObject({ status: 'queued', lastError: '550 No such mailbox' });
    await expect
      .poll(async () => {
        const [row] = await db()
          .select()
          .from(mailMessages)
          .where(eq(mailMessages.id, message!.id));
        return row!.status;
      })
      .toBe('sent');
  });

  it("answers 404 for another application's message and an unknown one", async () => {
    const { application } = await setUp();
    const other = await insertClientApplication(testApp, owner.accountId);
    const [message] = await db()
      .select()
      .from(mailMessages)
      .where(eq(mailMessages.applicationId, application.id))
      .limit(1);
    expect(
      (await request('GET', `/api/applications/${other.id}/mail/${message!.id}`)).statusCode,
    ).toBe(404);
    expect(
      (
        await request(
          'GET',
          `/api/applications/${application.id}/mail/00000000-0000-4000-8000-000000000000`,
        )
      ).json(),
    ).toMatchObject({ message: 'Message not found' });
  });

  it("sets the application's sender name and reply-to, refusing what a header cannot carry", async () => {
    const application = await insertClientApplication(testApp, owner.accountId);
    const url = `/api/applications/${application.id}`;
    const refused = await request('PUT', url, { mailSenderName: 'Acme\r\nBcc: x@example.com' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      message: 'mailSenderName: Sender name must be one line',
    });
    const badAddress = await request('PUT', url, { mailReplyTo: 'not an address' });
    expect(badAddress.statusCode).toBe(400);
    expect(badAddress.json()).toMatchObject({
      message: 'mailReplyTo: Reply-to must be an e-mail address',
    });
    const saved = await request('PUT', url, {
      mailSenderName: '  Acme Support ',
      mailReplyTo: ' help@acme.example ',
    });
    expect(saved.json()).toMatchObject({
      mailSenderName: 'Acme Support',
      mailReplyTo: 'help@acme.example',
    });
    const cleared = await request('PUT', url, { mailSenderName: '', mailReplyTo: '' });
    expect(cleared.json()).toMatchObject({ mailSenderName: null, mailReplyTo: null });
  });

  it("mails a user a reset link at the owner's request, with an audit entry", async () => {
    const application = await insertClientApplication(testApp, owner.accountId);
    const user = await insertAppUser(db(), application.id, { email: 'helpme@example.com' });
    const noAddress = await insertAppUser(db(), application.id);
    const url = (userId: string) =>
      `/api/applications/${application.id}/users/${userId}/password-reset`;
    const sent = await request('POST', url(user.id));
    expect(sent.statusCode, sent.body).toBe(202);
    expect(sent.json()).toEqual({
      message: 'A link to choose a new password is on its way to helpme@example.com',
    });
    const refused = await request('POST', url(noAddress.id));
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ message: USER_HAS_NO_EMAIL });
    const rows = () =>
      db().select().from(mailMessages).where(eq(mailMessages.applicationId, application.id));
    await expect.poll(async () => (await rows()).map((row) => row.status)).toEqual(['sent']);
    const [message] = await rows();
    expect(message).toMatchObject({ recipient: 'helpme@example.com', appUserId: user.id });
    const trail = await db()
      .select({ action: auditEntries.action })
      .from(auditEntries)
      .where(eq(auditEntries.applicationId, application.id));
    expect(trail.map((entry) => entry.action)).toContain('end_user_password_reset_sent');
  });

  it('mails keys: a batch as it is generated, and one key later; never a banned one', async () => {
    const application = await insertClientApplication(testApp, owner.accountId, {
      name: 'Key Shop',
    });
    const plan = await createPlanViaApi(testApp.app, owner, application.id, { name: 'Pro Yearly' });
    const keys = await generateLicensesViaApi(testApp.app, owner, application.id, {
      planId: plan.id,
      count: 2,
      emailTo: ' buyer@example.com ',
    });
    const rows = () =>
      db().select().from(mailMessages).where(eq(mailMessages.applicationId, application.id));
    await expect.poll(async () => (await rows()).map((row) => row.status)).toEqual(['sent']);
    const [batch] = await rows();
    expect(batch).toMatchObject({ kind: 'license_key', recipient: 'buyer@example.com' });
    const opened = openedMailMessageSchema.parse(
      (await request('GET', `/api/applications/${application.id}/mail/${batch!.id}`)).json(),
    );
    expect(opened.content?.subject).toBe('Your Key Shop licence key');
    expect(opened.content?.text).toContain('Here is your licence key for Key Shop (Pro Yearly):');
    for (const { key } of keys) expect(opened.content?.text).toContain(key);

    const keyUrl = (licenseId: string) =>
      `/api/applications/${application.id}/licenses/${licenseId}/email`;
    const one = await request('POST', keyUrl(keys[0]!.id), { to: 'second@example.com' });
    expect(one.statusCode, one.body).toBe(202);
    expect(one.json()).toEqual({ message: 'The key is on its way to second@example.com' });
    expect((await request('POST', keyUrl(keys[0]!.id), { to: 'nope' })).statusCode).toBe(400);
    await request('POST', `/api/applications/${application.id}/licenses/${keys[1]!.id}/ban`, {
      reason: 'refunded',
    });
    const banned = await request('POST', keyUrl(keys[1]!.id), { to: 'third@example.com' });
    expect(banned.statusCode).toBe(409);
    await expect
      .poll(async () => (await rows()).filter((row) => row.status === 'sent').length)
      .toBe(2);
    const trail = await db()
      .select({ action: auditEntries.action, after: auditEntries.after })
      .from(auditEntries)
      .where(eq(auditEntries.applicationId, application.id));
    const emailed = trail.find((entry) => entry.action === 'license_key_emailed');
    expect(emailed?.after).toEqual({ to: 'second@example.com' });
    expect(JSON.stringify(trail)).not.toContain(keys[0]!.key);
  });

  it('refuses more keys in one mail than it may carry', async () => {
    const application = await insertClientApplication(testApp, owner.accountId);
    const plan = await createPlanViaApi(testApp.app, owner, application.id);
    const response = await request('POST', `/api/applications/${application.id}/licenses`, {
      planId: plan.id,
      count: 101,
      emailTo: 'buyer@example.com',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      message: 'count: One mail carries at most 100 keys',
    });
  });

  it('lets the owner word each kind of mail, preview it, test it and go back to the default', async () => {
    const application = await insertClientApplication(testApp, owner.accountId, { name: 'Wordy' });
    const url = `/api/applications/${application.id}/mail-templates`;
    const listed = mailTemplateSchema.array().parse((await request('GET', url)).json());
    expect(listed.map((template) => [template.kind, template.isDefault])).toEqual([
      ['password_reset', true],
      ['email_verification', true],
      ['license_key', true],
      ['expiry_reminder', true],
      ['new_device', true],
    ]);

    const unescaped = await request('PUT', `${url}/password_reset`, {
      subject: 'Reset',
      text: 'Hi {{username}}: {{link}}',
      html: '<p>Hi {{{username}}}</p>',
    });
    expect(unescaped.statusCode).toBe(400);
    expect(unescaped.json()).toMatchObject({
      message: 'html: {{{username}}} would skip escaping: write {{username}}',
    });
    const twoLines = await request('PUT', `${url}/password_reset`, {
      subject: 'Reset\nBcc: x@example.com',
      text: 't',
      html: 'h',
    });
    expect(twoLines.statusCode).toBe(400);
    expect(
      (await request('PUT', `${url}/nonsense`, { subject: 's', text: 't', html: 'h' })).statusCode,
    ).toBe(400);

    const own = {
      subject: 'Your {{app_name}} password, {{username}}',
      text: 'Follow {{link}} within {{link_minutes}} minutes.',
      html: '<p>Hi {{username}}, <a href="{{link}}">choose one</a></p>',
    };
    const preview = renderedMailSchema.parse(
      (await request('POST', `${url}/password_reset/preview`, own)).json(),
    );
    expect(preview.subject).toBe('Your Wordy password, sample_user');
    expect(preview.text).toMatch(/^Follow http:\/\/localhost:\d+\/portal\/0{20}\/reset\?token=/);
    const saved = mailTemplateSchema.parse(
      (await request('PUT', `${url}/password_reset`, own)).json(),
    );
    expect(saved).toMatchObject({ ...own, isDefault: false });

    // The worker renders with the saved wording.
    const user = await insertAppUser(db(), application.id, {
      username: 'wendy',
      email: 'w@example.com',
    });
    await callClientApi(testApp.app, 'password/forgot', {
      apiKey: application.apiKey,
      body: { username: user.username },
    });
    const tested = await request('POST', `${url}/license_key/test`);
    expect(tested.statusCode, tested.body).toBe(202);
    expect(tested.json()).toEqual({
      message: `A test mail is on its way to ${owner.account.email}`,
    });
    const rows = () =>
      db().select().from(mailMessages).where(eq(mailMessages.applicationId, application.id));
    await expect
      .poll(
        async () => (await rows()).every((row) => row.status === 'sent') && (await rows()).length,
      )
      .toBe(2);
    const subjects = (await rows()).map((row) => [row.recipient, row.subject]).sort();
    expect(subjects).toEqual(
      [
        [owner.account.email, 'Your Wordy licence key'],
        ['w@example.com', 'Your Wordy password, wendy'],
      ].sort(),
    );

    const reset = mailTemplateSchema.parse(
      (await request('DELETE', `${url}/password_reset`)).json(),
    );
    expect(reset).toMatchObject({
      isDefault: true,
      subject: 'Choose a new password for {{app_name}}',
    });
  });
});
