import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  applications,
  appUsers,
  expiryReminders,
  mailMessages,
  ownerAccounts,
  plans,
  subscriptions,
} from '../../db/schema/index.ts';
import { insertAppUser, insertClientApplication } from '../../../test/factories.ts';
import { startTwoInstancesForSuite } from '../../../test/suite-test-app.ts';
import { startSmtpReceiver, type SmtpReceiver } from '../../../test/smtp-test-receiver.ts';
import { queueExpiryReminders } from './queue-expiry-reminders.ts';

const DAY_MS = 86_400_000;
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
/** The date as reminders word it: "5 December 2026" (UTC). */
/** The List-Unsubscribe headers as mailparser reads them (RFC 2369 and RFC 8058). */
const listHeadersOf = (mail: { parsed: { headers: Map<string, unknown> } }) =>
  mail.parsed.headers.get('list') as {
    unsubscribe?: { url?: string };
    'unsubscribe-post'?: { name?: string };
  };
const dateInWords = (date: Date) =>
  `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;

/**
 * Expiry reminders as a deployment of two instances sends them, against a real SMTP server:
 * one mail per subscription (and per account expiry) per period however many instances sweep,
 * none for a period extended before it went out, and a List-Unsubscribe link that stops them.
 */
describe('expiry reminders', () => {
  let receiver: SmtpReceiver;
  beforeAll(async () => {
    receiver = await startSmtpReceiver();
  });
  afterAll(() => receiver.close());

  const { first, second, secondConnection } = startTwoInstancesForSuite(() => ({
    env: {
      SMTP_URL: receiver.url,
      MAIL_FROM: 'no-reply@latchkey.example.com',
      MAIL_POLL_INTERVAL_MS: '50',
      MAIL_RETRY_DELAYS_SECONDS: '1,1',
    },
    isMailDispatcherEnabled: true,
  }));
  const db = () => first.database.db;

  let ownerAccountId: string;
  beforeAll(async () => {
    const [owner] = await db()
      .insert(ownerAccounts)
      .values({ firebaseUid: 'reminder-owner', email: 'owner@acme.example', role: 'owner' })
      .returning();
    ownerAccountId = owner!.id;
  });

  const setUp = async () => {
    const application = await insertClientApplication(first, ownerAccountId, {
      name: 'Reminder Paint',
      expiryReminderDays: 7,
    });
    const [plan] = await db()
      .insert(plans)
      .values({ applicationId: application.id, name: 'Pro', durationDays: 30 })
      .returning();
    const holder = async (username: string, endsInDays: number | null, email: string | null) => {
      const user = await insertAppUser(db(), application.id, { username, email });
      const [held] = await db()
        .insert(subscriptions)
        .values({
          applicationId: application.id,
          appUserId: user.id,
          planId: plan!.id,
          expiresAt: endsInDays === null ? null : new Date(Date.now() + endsInDays * DAY_MS),
        })
        .returning();
      return { user, subscription: held! };
    };
    return { application, holder };
  };
  const mailsOf = (userIds: string[]) =>
    db().select().from(mailMessages).where(inArray(mailMessages.appUserId, userIds));
  /** Both instances sweep at once, as their schedules may have them do. */
  const sweepTwice = async () => {
    const counts = await Promise.all([
      queueExpiryReminders(db()),
      queueExpiryReminders(secondConnection.db),
    ]);
    first.app.mailDispatcher!.wake();
    return counts[0] + counts[1];
  };

  it('mails each period once with two instances sweeping side by side', async () => {
    receiver.answerWith(() => ({ accept: true }));
    const { application, holder } = await setUp();
    const soon = await holder('soon', 3, 'soon@example.com');
    const later = await holder('later', 30, 'later@example.com');
    const lifetime = await holder('lifetime', null, 'lifetime@example.com');
    const lapsed = await holder('lapsed', -1, 'lapsed@example.com');
    const noAddress = await holder('noaddress', 2, null);
    const accountEnds = new Date(Date.now() + 2 * DAY_MS);
    const account = await insertAppUser(db(), application.id, {
      username: 'account',
      email: 'account@example.com',
      expiresAt: accountEnds,
    });
    const ids = [soon, later, lifetime, lapsed, noAddress].map((each) => each.user.id);
    const before = receiver.received.length;

    expect(await sweepTwice()).toBe(2);
    expect(await sweepTwice()).toBe(0);
    const arrived = (await receiver.waitForMessages(before + 2)).slice(before);
    const byRecipient = new Map(arrived.map((mail) => [mail.to[0], mail]));
    expect([...byRecipient.keys()].sort()).toEqual(['account@example.com', 'soon@example.com']);

    const mail = byRecipient.get('soon@example.com')!;
    const endsOn = dateInWords(soon.subscription.expiresAt!);
    expect(mail.parsed.subject).toBe(`Your Reminder Paint access ends on ${endsOn}`);
    expect(mail.parsed.text).toContain(
      `Your Pro access to Reminder Paint ends on ${endsOn}. Renew before then`,
    );
    const list = listHeadersOf(mail);
    expect(list.unsubscribe?.url).toMatch(
      new RegExp(
        `^http://localhost:\\d+/api/portal/${application.portalPublicId}/reminders/stop\\?user=${soon.user.id}&token=[0-9a-f]{64}$`,
      ),
    );
    expect(list['unsubscribe-post']?.name).toBe('List-Unsubscribe=One-Click');
    expect(mail.parsed.text).toMatch(
      new RegExp(
        `To stop these reminders: http://localhost:\\d+/portal/${application.portalPublicId}/unsubscribe\\?user=${soon.user.id}&token=[0-9a-f]{64}`,
      ),
    );
    expect(byRecipient.get('account@example.com')!.parsed.subject).toBe(
      `Your Reminder Paint access ends on ${dateInWords(accountEnds)}`,
    );
    expect(await mailsOf([...ids, account.id])).toHaveLength(2);

    // A renewal is a new period: reminded again once it is due.
    await db()
      .update(subscriptions)
      .set({ expiresAt: new Date(Date.now() + 5 * DAY_MS) })
      .where(eq(subscriptions.id, soon.subscription.id));
    expect(await sweepTwice()).toBe(1);
    expect(await sweepTwice()).toBe(0);
    await receiver.waitForMessages(before + 3);
  });

  it('sends nothing for a period extended between the sweep and the send', async () => {
    const { holder } = await setUp();
    const renewing = await holder('renewing', 3, 'renewing@example.com');
    // The first attempt is refused for now, so the renewal lands before the next one.
    receiver.answerWith(() => ({ accept: false, code: 451, message: 'Try again later' }));
    expect(await sweepTwice()).toBe(1);
    await expect
      .poll(async () => (await mailsOf([renewing.user.id]))[0]?.status, { timeout: 15_000 })
      .toBe('retrying');
    await db()
      .update(subscriptions)
      .set({ expiresAt: new Date(Date.now() + 60 * DAY_MS) })
      .where(eq(subscriptions.id, renewing.subscription.id));
    const before = receiver.received.length;
    receiver.answerWith(() => ({ accept: true }));
    // The retry is due a second after the refusal: longer than expect.poll's default wait.
    await expect
      .poll(async () => (await mailsOf([renewing.user.id])).length, { timeout: 15_000 })
      .toBe(0);
    expect(receiver.received.length).toBe(before);
    // Its record stays: the old period is not reminded again.
    expect(await sweepTwice()).toBe(0);
  });

  it('stops for good through the one-click List-Unsubscribe', async () => {
    receiver.answerWith(() => ({ accept: true }));
    const { holder } = await setUp();
    const leaving = await holder('leaving', 3, 'leaving@example.com');
    const before = receiver.received.length;
    expect(await sweepTwice()).toBe(1);
    const [mail] = (await receiver.waitForMessages(before + 1)).slice(before);
    const target = new URL(listHeadersOf(mail!).unsubscribe!.url!);

    // A mail program posts it, from no page of ours: no Origin, a form body.
    const forged = await second.app.inject({
      method: 'POST',
      url: `${target.pathname}?user=${leaving.user.id}&token=${'0'.repeat(64)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(forged.statusCode).toBe(410);
    const stopped = await second.app.inject({
      method: 'POST',
      url: `${target.pathname}${target.search}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(stopped.statusCode, stopped.body).toBe(204);
    const [row] = await db().select().from(appUsers).where(eq(appUsers.id, leaving.user.id));
    expect(row!.remindersStoppedAt).not.toBeNull();
    // Twice is once.
    const again = await first.app.inject({
      method: 'POST',
      url: `${target.pathname}${target.search}`,
    });
    expect(again.statusCode).toBe(204);

    await db()
      .update(subscriptions)
      .set({ expiresAt: new Date(Date.now() + 4 * DAY_MS) })
      .where(eq(subscriptions.id, leaving.subscription.id));
    expect(await sweepTwice()).toBe(0);
    const records = await db()
      .select()
      .from(expiryReminders)
      .where(eq(expiryReminders.appUserId, leaving.user.id));
    expect(records).toHaveLength(1);
  });

  it('sends none while the application has them off', async () => {
    const { application, holder } = await setUp();
    await holder('quiet', 1, 'quiet@example.com');
    await db()
      .update(applications)
      .set({ expiryReminderDays: null })
      .where(eq(applications.id, application.id));
    expect(await sweepTwice()).toBe(0);
  });
});
