import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailMessages, ownerAccounts } from '../../db/schema/index.ts';
import { insertAppUser, insertClientApplication } from '../../../test/factories.ts';
import { startTwoInstancesForSuite } from '../../../test/suite-test-app.ts';
import { startSmtpReceiver, type SmtpReceiver } from '../../../test/smtp-test-receiver.ts';
import { queuePasswordResetMail } from './queue-password-reset.ts';

/**
 * The mail outbox as a deployment of two instances runs it, against a real SMTP server: each
 * message sent once, temporary refusals retried with the same Message-ID, a permanent one
 * recorded with its reason.
 */
describe('mail outbox', () => {
  let receiver: SmtpReceiver;
  beforeAll(async () => {
    receiver = await startSmtpReceiver();
  });
  afterAll(() => receiver.close());

  const { first, second } = startTwoInstancesForSuite(() => ({
    env: {
      SMTP_URL: receiver.url,
      MAIL_FROM: 'no-reply@latchkey.example.com',
      MAIL_POLL_INTERVAL_MS: '50',
      MAIL_RETRY_DELAYS_SECONDS: '1,1',
    },
    isMailDispatcherEnabled: true,
  }));
  const db = () => first.database.db;

  let applicationId: number;
  beforeAll(async () => {
    const [owner] = await db()
      .insert(ownerAccounts)
      .values({ firebaseUid: 'outbox-owner', email: 'owner@acme.example', role: 'owner' })
      .returning();
    applicationId = (await insertClientApplication(first, owner!.id)).id;
  });

  /** Queues one reset mail per new user, as password/forgot does; answers the message ids. */
  const queueMails = async (count: number): Promise<string[]> => {
    const ids: string[] = [];
    for (let index = 0; index < count; index += 1) {
      const user = await insertAppUser(db(), applicationId, {
        email: `buyer-${ids.length}-${Date.now()}@example.com`,
      });
      await queuePasswordResetMail(db(), {
        applicationId,
        target: { appUserId: user.id },
        serverSecret: first.config.serverSecret,
      });
      const [row] = await db()
        .select({ id: mailMessages.id })
        .from(mailMessages)
        .where(eq(mailMessages.appUserId, user.id));
      ids.push(row!.id);
    }
    first.app.mailDispatcher!.wake();
    second.app.mailDispatcher!.wake();
    return ids;
  };
  const rowsOf = (ids: string[]) =>
    db().select().from(mailMessages).where(inArray(mailMessages.id, ids));

  it('sends each message once with two instances claiming side by side', async () => {
    receiver.answerWith(() => ({ accept: true }));
    const before = receiver.received.length;
    const ids = await queueMails(12);
    await receiver.waitForMessages(before + 12);
    await expect
      .poll(async () => (await rowsOf(ids)).every((row) => row.status === 'sent'))
      .toBe(true);
    const arrived = receiver.received.slice(before).map((mail) => mail.parsed.messageId);
    expect(new Set(arrived).size).toBe(12);
    expect(arrived.sort()).toEqual(ids.map((id) => `<${id}@latchkey.example.com>`).sort());
    expect((await rowsOf(ids)).map((row) => row.attempts)).toEqual(ids.map(() => 1));
  });

  it('retries temporary refusals with the same Message-ID, then delivers', async () => {
    const offeredBefore = receiver.attempts;
    receiver.answerWith((attempt) =>
      attempt - offeredBefore <= 2
        ? { accept: false, code: 451, message: 'Greylisted, try again later' }
        : { accept: true },
    );
    const before = receiver.received.length;
    const [id] = await queueMails(1);
    const [mail] = (await receiver.waitForMessages(before + 1)).slice(before);
    expect(mail!.parsed.messageId).toBe(`<${id}@latchkey.example.com>`);
    await expect.poll(async () => (await rowsOf([id!]))[0]!.status).toBe('sent');
    const [row] = await rowsOf([id!]);
    expect(row).toMatchObject({ attempts: 3, lastError: null });
    expect(receiver.attempts - offeredBefore).toBe(3);
  });

  it('stops at a permanent refusal and says why', async () => {
    receiver.answerWith(() => ({ accept: false, code: 550, message: 'No such mailbox here' }));
    const offeredBefore = receiver.attempts;
    const [id] = await queueMails(1);
    await expect.poll(async () => (await rowsOf([id!]))[0]!.status).toBe('failed');
    const [row] = await rowsOf([id!]);
    expect(row!.attempts).toBe(1);
    expect(row!.lastError).toMatch(/550.*No such mailbox here/);
    expect(receiver.attempts - offeredBefore).toBe(1);
  });

  it('gives up after the last retry of a server that keeps refusing for now', async () => {
    receiver.answerWith(() => ({ accept: false, code: 421, message: 'Service not available' }));
    const [id] = await queueMails(1);
    await expect
      .poll(async () => (await rowsOf([id!]))[0]!.status, { timeout: 10_000 })
      .toBe('failed');
    const [row] = await rowsOf([id!]);
    // MAIL_RETRY_DELAYS_SECONDS has two delays: three attempts in all.
    expect(row!.attempts).toBe(3);
    expect(row!.lastError).toMatch(/421/);
  });
});
