import { webhookEventNames, type ActivityEvent } from '@latchkey/contracts';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { activityLogs, webhookDeliveries } from '../../db/schema/index.ts';
import {
  callClientApi,
  createWebhookViaApi,
  insertAppUserWithPassword,
  insertBlacklistEntry,
  insertClientApplication,
} from '../../../test/factories.ts';
import {
  signInOwnerForSuite,
  startTestAppWithSecondConnection,
} from '../../../test/suite-test-app.ts';

const PASSWORD = 'correct horse battery staple';

/**
 * Acknowledged means written: once a client-API answer acknowledges an event,
 * its activity row and its webhook delivery (the outbox) are committed. Read here through
 * another connection, as another instance would see them, at once after the answer, without
 * flushing the recorder: an event written after the answer (a `void` where an `await` belongs)
 * fails these tests. (In-memory PGlite has one connection; there the read still comes before
 * any write the answer did not wait for, since queries run in the order they were issued.)
 */
describe('client-API events are written before the answer that acknowledges them', () => {
  const { database, testApp, otherConnection } = startTestAppWithSecondConnection();
  const owner = signInOwnerForSuite(testApp);
  let apiKey: string;
  let applicationId: number;

  beforeAll(async () => {
    const application = await insertClientApplication(testApp, owner.accountId, {
      version: '1.0',
      hwidLockEnabled: true,
    });
    apiKey = application.apiKey;
    applicationId = application.id;
    await createWebhookViaApi(testApp.app, owner, { events: [...webhookEventNames] });
  });

  /** The activity row of `event` for `username`, and its queued delivery, seen from elsewhere. */
  const writtenElsewhere = async (event: ActivityEvent, username: string) => {
    const rows = await otherConnection.db
      .select({ id: activityLogs.id })
      .from(activityLogs)
      .where(
        and(
          eq(activityLogs.applicationId, applicationId),
          eq(activityLogs.event, event),
          eq(activityLogs.username, username),
        ),
      );
    const deliveries =
      rows.length === 0
        ? []
        : await otherConnection.db
            .select({ event: webhookDeliveries.event })
            .from(webhookDeliveries)
            .where(eq(webhookDeliveries.activityLogId, rows[0]!.id));
    return { rows: rows.length, deliveries: deliveries.map((delivery) => delivery.event) };
  };

  const answerOf = async (path: string, body: Record<string, unknown>) => {
    const response = await callClientApi(testApp.app, path, {
      apiKey,
      body: { version: '1.0', ...body },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { success: boolean; code: string };
  };

  it('a successful login', async () => {
    const user = await insertAppUserWithPassword(database.db, applicationId, PASSWORD);
    const answer = await answerOf('login', {
      username: user.username,
      password: PASSWORD,
      hwid: 'PC-1',
    });
    expect(answer.code).toBe('OK');
    expect(await writtenElsewhere('user_login', user.username)).toEqual({
      rows: 1,
      deliveries: ['user_login'],
    });
  });

  it.each([
    ['a wrong password', 'INVALID_CREDENTIALS', 'login_failed', {}, { password: 'wrong' }],
    ['a paused account', 'ACCOUNT_DISABLED', 'account_disabled', { isPaused: true }, {}],
    [
      'an expired account',
      'ACCOUNT_EXPIRED',
      'account_expired',
      { expiresAt: new Date('2020-01-01T00:00:00Z') },
      {},
    ],
    ['an old version', 'VERSION_MISMATCH', 'version_mismatch', {}, { version: '0.9' }],
    ['another machine', 'HWID_MISMATCH', 'hwid_mismatch', { hwid: 'PC-1' }, { hwid: 'PC-2' }],
  ] as const)('a login refused for %s', async (_, code, event, userOverrides, bodyOverrides) => {
    const user = await insertAppUserWithPassword(
      database.db,
      applicationId,
      PASSWORD,
      userOverrides,
    );
    const answer = await answerOf('login', {
      username: user.username,
      password: PASSWORD,
      hwid: 'PC-1',
      ...bodyOverrides,
    });
    expect(answer.code).toBe(code);
    expect(await writtenElsewhere(event, user.username)).toEqual({
      rows: 1,
      deliveries: [event],
    });
  });

  it('a login refused by the blacklist', async () => {
    const user = await insertAppUserWithPassword(database.db, applicationId, PASSWORD);
    await insertBlacklistEntry(database.db, {
      ownerAccountId: owner.accountId,
      type: 'hwid',
      value: 'BANNED-PC',
    });
    const answer = await answerOf('login', {
      username: user.username,
      password: PASSWORD,
      hwid: 'BANNED-PC',
    });
    expect(answer.code).toBe('BLACKLISTED');
    expect(await writtenElsewhere('login_blocked_hwid', user.username)).toEqual({
      rows: 1,
      deliveries: ['login_blocked_hwid'],
    });
  });

  it('a registration', async () => {
    const answer = await answerOf('register', {
      username: 'new_pilot',
      password: PASSWORD,
      hwid: 'PC-9',
    });
    expect(answer.code).toBe('OK');
    expect(await writtenElsewhere('user_register', 'new_pilot')).toEqual({
      rows: 1,
      deliveries: ['user_register'],
    });
  });

  it('a registration refused by the blacklist', async () => {
    await insertBlacklistEntry(database.db, {
      ownerAccountId: owner.accountId,
      type: 'hwid',
      value: 'BANNED-REG',
    });
    const refused = await answerOf('register', {
      username: 'banned_pilot',
      password: PASSWORD,
      hwid: 'BANNED-REG',
    });
    expect(refused.code).toBe('BLACKLISTED');
    expect(await writtenElsewhere('login_blocked_hwid', 'banned_pilot')).toEqual({
      rows: 1,
      deliveries: ['login_blocked_hwid'],
    });
  });
});
