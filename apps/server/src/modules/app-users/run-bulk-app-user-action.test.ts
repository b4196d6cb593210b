import { randomUUID } from 'node:crypto';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  auditEntryListSchema,
  bulkAppUserLimits,
  bulkAppUserResultSchema,
  errorBodySchema,
  type Application,
  type BulkProgress,
  type OwnerEvent,
} from '@latchkey/contracts';
import {
  activityLogs,
  appUserDevices,
  appUserSessions,
  appUsers,
  auditEntries,
} from '../../db/schema/index.ts';
import { createManualClock } from '../../lib/clock.ts';
import { createOwnerEventHub } from '../../events/owner-event-hub.ts';
import {
  createApplicationViaApi,
  insertAppUser,
  insertAppUserSession,
} from '../../../test/factories.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';

describe('owner API: bulk actions on end users', () => {
  let application: Application;
  let otherApplication: Application;
  const clock = createManualClock(new Date('2026-03-01T10:00:00Z'));
  const ownerEvents = createOwnerEventHub();
  let events: OwnerEvent[] = [];

  const testApp = startTestAppForSuite({ clock, ownerEvents });
  // The first account of the site is its owner, who also reads the audit trail.
  const owner = signInOwnerForSuite(testApp);
  const otherOwner = signInOwnerForSuite(testApp);

  beforeAll(async () => {
    otherApplication = await createApplicationViaApi(testApp.app, otherOwner);
    ownerEvents.subscribe(owner.accountId, (event) => events.push(event));
    ownerEvents.subscribe(otherOwner.accountId, (event) => events.push(event));
  });
  beforeEach(async () => {
    // A fresh application per test: counts and searches see only its own users.
    application = await createApplicationViaApi(testApp.app, owner);
    events = [];
  });

  const db = () => testApp.database.db;
  const bulk = (body: Record<string, unknown>, as = owner, applicationId = application.id) =>
    testApp.app.inject({
      method: 'POST',
      url: `/api/applications/${applicationId}/users/bulk`,
      headers: as.headers,
      payload: { operationId: randomUUID(), ...body },
    });
  const result = (response: Awaited<ReturnType<typeof bulk>>) => {
    expect(response.statusCode, response.body).toBe(200);
    return bulkAppUserResultSchema.parse(response.json());
  };
  const users = (ids: string[]) =>
    db().select().from(appUsers).where(inArray(appUsers.id, ids)).orderBy(appUsers.username);
  const openSessions = async (ids: string[]) =>
    (
      await db()
        .select({ id: appUserSessions.id })
        .from(appUserSessions)
        .where(and(inArray(appUserSessions.appUserId, ids), isNull(appUserSessions.endedAt)))
    ).length;
  const progressEvents = () =>
    events.flatMap((event) => (event.type === 'bulk_progress' ? [event.data] : []));

  /** Many users in one statement: these tests are about the bulk action, not how users are made. */
  const insertManyUsers = async (count: number, prefix: string) => {
    await db().execute(sql`
      insert into app_users (application_id, username, password_hash)
      select ${application.id}, ${prefix} || lpad(n::text, 5, '0'), 'not-a-real-hash'
      from generate_series(1, ${count}) as n`);
  };

  it('pauses the named users, ends their sessions, skips the already paused, and logs each change', async () => {
    const [alice, bob, carol] = await Promise.all([
      insertAppUser(db(), application.id, { username: 'alice' }),
      insertAppUser(db(), application.id, { username: 'bob' }),
      insertAppUser(db(), application.id, { username: 'carol', isPaused: true }),
    ]);
    const ids = [alice!.id, bob!.id, carol!.id];
    for (const user of [alice!, bob!]) {
      await insertAppUserSession(db(), {
        applicationId: application.id,
        appUserId: user.id,
        lastHeartbeatAt: clock.now(),
      });
    }
    const operationId = randomUUID();

    const answer = result(await bulk({ operationId, action: 'pause', userIds: ids }));

    expect(answer).toEqual({
      operationId,
      action: 'pause',
      total: 3,
      done: 2,
      skipped: 1,
      skippedReasons: [{ reason: 'already_paused', count: 1 }],
    });
    expect((await users(ids)).map((user) => user.isPaused)).toEqual([true, true, true]);
    expect(await openSessions(ids)).toBe(0);
    const [ended] = await db()
      .select({ reason: appUserSessions.endReason })
      .from(appUserSessions)
      .where(eq(appUserSessions.appUserId, alice!.id));
    expect(ended!.reason).toBe('owner');

    const logged = await db()
      .select()
      .from(activityLogs)
      .where(
        and(
          eq(activityLogs.applicationId, application.id),
          eq(activityLogs.event, 'owner_bulk_action'),
        ),
      );
    expect(logged.map((row) => row.username).sort()).toEqual(['alice', 'bob']);
    expect(logged[0]!.metadata).toMatchObject({ action: 'pause', operationId, code: 'OK' });

    const audited = await db()
      .select()
      .from(auditEntries)
      .where(eq(auditEntries.action, 'end_users_bulk_action'));
    expect(audited.filter((entry) => entry.after?.operationId === operationId)).toEqual([
      expect.objectContaining({
        actorAccountId: owner.accountId,
        targetAccountId: owner.accountId,
        after: { operationId, applicationId: application.id, action: 'pause', userCount: 2 },
      }),
    ]);

    const trail = await testApp.app.inject({ url: '/api/admin/audit', headers: owner.headers });
    expect(trail.statusCode).toBe(200);
    expect(auditEntryListSchema.parse(trail.json())).toContainEqual(
      expect.objectContaining({
        action: 'end_users_bulk_action',
        target: { id: owner.accountId, email: owner.account.email },
        before: null,
        after: null,
        bulkAction: { operationId, applicationId: application.id, action: 'pause', userCount: 2 },
      }),
    );

    expect(progressEvents()).toEqual([
      {
        operationId,
        applicationId: application.id,
        action: 'pause',
        total: 3,
        done: 2,
        skipped: 1,
        isFinished: false,
        error: null,
      },
      {
        operationId,
        applicationId: application.id,
        action: 'pause',
        total: 3,
        done: 2,
        skipped: 1,
        isFinished: true,
        error: null,
      },
    ] satisfies BulkProgress[]);
    expect(events).toContainEqual({
      type: 'app_user',
      data: { applicationId: application.id, userId: null, change: 'updated' },
    });
  });

  it('unpauses only paused users', async () => {
    const paused = await insertAppUser(db(), application.id, { username: 'p', isPaused: true });
    const active = await insertAppUser(db(), application.id, { username: 'q' });
    const answer = result(await bulk({ action: 'unpause', userIds: [paused.id, active.id] }));
    expect(answer).toMatchObject({ done: 1, skipped: 1 });
    expect(answer.skippedReasons).toEqual([{ reason: 'not_paused', count: 1 }]);
    expect((await users([paused.id])).map((user) => user.isPaused)).toEqual([false]);
  });

  it('sets an expiry, and one in the past ends the sessions', async () => {
    const user = await insertAppUser(db(), application.id, { username: 'x' });
    const same = await insertAppUser(db(), application.id, {
      username: 'y',
      expiresAt: new Date('2020-01-01T00:00:00Z'),
    });
    await insertAppUserSession(db(), {
      applicationId: application.id,
      appUserId: user.id,
      lastHeartbeatAt: clock.now(),
    });
    const answer = result(
      await bulk({
        action: 'set_expiry',
        expiresAt: '2020-01-01T00:00:00Z',
        userIds: [user.id, same.id],
      }),
    );
    expect(answer).toMatchObject({ done: 1, skipped: 1 });
    expect(answer.skippedReasons).toEqual([{ reason: 'same_expiry', count: 1 }]);
    expect((await users([user.id]))[0]!.expiresAt).toEqual(new Date('2020-01-01T00:00:00Z'));
    expect(await openSessions([user.id])).toBe(0);

    const cleared = result(
      await bulk({ action: 'set_expiry', expiresAt: null, userIds: [user.id] }),
    );
    expect(cleared.done).toBe(1);
    expect((await users([user.id]))[0]!.expiresAt).toBeNull();
  });

  it('extends from the later of the expiry and now, and skips users who never expire', async () => {
    const later = await insertAppUser(db(), application.id, {
      username: 'later',
      expiresAt: new Date('2026-06-01T00:00:00Z'),
    });
    const expired = await insertAppUser(db(), application.id, {
      username: 'expired',
      expiresAt: new Date('2025-01-01T00:00:00Z'),
    });
    const never = await insertAppUser(db(), application.id, { username: 'never' });
    const answer = result(
      await bulk({ action: 'extend', days: 30, userIds: [later.id, expired.id, never.id] }),
    );
    expect(answer).toMatchObject({ done: 2, skipped: 1 });
    expect(answer.skippedReasons).toEqual([{ reason: 'never_expires', count: 1 }]);
    const [stored, storedLater, storedNever] = await users([expired.id, later.id, never.id]);
    expect(stored!.expiresAt).toEqual(new Date('2026-03-31T10:00:00Z'));
    expect(storedLater!.expiresAt).toEqual(new Date('2026-07-01T00:00:00Z'));
    expect(storedNever!.expiresAt).toBeNull();
  });

  it('resets HWIDs as the single reset does (devices released, sessions ended, events) and skips users without one', async () => {
    const bound = await insertAppUser(db(), application.id, { username: 'bound', hwid: 'HW-1' });
    const unbound = await insertAppUser(db(), application.id, { username: 'unbound' });
    await insertAppUserSession(db(), {
      applicationId: application.id,
      appUserId: bound.id,
      lastHeartbeatAt: clock.now(),
    });
    const answer = result(await bulk({ action: 'reset_hwid', userIds: [bound.id, unbound.id] }));
    expect(answer).toMatchObject({ done: 1, skipped: 1 });
    expect(answer.skippedReasons).toEqual([{ reason: 'no_hwid', count: 1 }]);
    const [stored] = await users([bound.id]);
    expect(stored).toMatchObject({ hwid: null, deviceCount: 0 });
    expect(
      await db().select().from(appUserDevices).where(eq(appUserDevices.appUserId, bound.id)),
    ).toEqual([]);
    expect(await openSessions([bound.id])).toBe(0);
    const released = await db()
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.appUserId, bound.id), eq(activityLogs.event, 'device_released')));
    expect(released).toHaveLength(1);
  });

  it('deletes every user a search matches, keeping their log rows by username', async () => {
    await insertManyUsers(30, 'match_');
    const keep = await insertAppUser(db(), application.id, { username: 'keeper' });
    const answer = result(await bulk({ action: 'delete', matching: { search: 'MATCH_' } }));
    expect(answer).toMatchObject({ total: 30, done: 30, skipped: 0 });
    const left = await db()
      .select({ username: appUsers.username })
      .from(appUsers)
      .where(eq(appUsers.applicationId, application.id));
    expect(left).toEqual([{ username: keep.username }]);
    const logged = await db()
      .select({ appUserId: activityLogs.appUserId, username: activityLogs.username })
      .from(activityLogs)
      .where(
        and(
          eq(activityLogs.applicationId, application.id),
          eq(activityLogs.event, 'owner_bulk_action'),
        ),
      );
    expect(logged).toHaveLength(30);
    expect(
      logged.every((row) => row.appUserId === null && row.username!.startsWith('match_')),
    ).toBe(true);
    expect(events).toContainEqual({
      type: 'app_user',
      data: { applicationId: application.id, userId: null, change: 'deleted' },
    });
  });

  it('never touches another owner\u2019s users: their ids are skipped as not found, their application is a 404', async () => {
    const theirs = await insertAppUser(db(), otherApplication.id, { username: 'theirs' });
    const mine = await insertAppUser(db(), application.id, { username: 'mine' });

    const answer = result(await bulk({ action: 'delete', userIds: [theirs.id, mine.id] }));
    expect(answer).toMatchObject({ total: 2, done: 1, skipped: 1 });
    expect(answer.skippedReasons).toEqual([{ reason: 'not_found', count: 1 }]);
    expect(await users([theirs.id])).toHaveLength(1);

    const foreign = await bulk({ action: 'pause', matching: {} }, owner, otherApplication.id);
    expect(foreign.statusCode).toBe(404);
    expect((await users([theirs.id]))[0]!.isPaused).toBe(false);
    // Only the first request's batch and end were reported; the refused one published nothing.
    expect(progressEvents().map((progress) => progress.applicationId)).toEqual([
      application.id,
      application.id,
    ]);
  });

  it('works through 2,500 users in three batches, reporting progress after each', async () => {
    await insertManyUsers(2_500, 'many_');
    const operationId = randomUUID();
    const answer = result(await bulk({ operationId, action: 'pause', matching: { search: '' } }));
    expect(answer).toMatchObject({ total: 2_500, done: 2_500, skipped: 0 });
    const [paused] = await db()
      .select({ count: sql<number>`count(*)::int` })
      .from(appUsers)
      .where(and(eq(appUsers.applicationId, application.id), eq(appUsers.isPaused, true)));
    expect(paused!.count).toBe(2_500);
    expect(progressEvents().map((progress) => [progress.done, progress.isFinished])).toEqual([
      [1_000, false],
      [2_000, false],
      [2_500, false],
      [2_500, true],
    ]);
    const batches = await db()
      .select({ after: auditEntries.after })
      .from(auditEntries)
      .where(sql`${auditEntries.after}->>'operationId' = ${operationId}`);
    expect(batches.map((entry) => entry.after!.userCount).sort()).toEqual([1_000, 1_000, 500]);

    // Again: every user is now skipped, with the reason.
    const again = result(await bulk({ action: 'pause', matching: {} }));
    expect(again).toMatchObject({ done: 0, skipped: 2_500 });
    expect(again.skippedReasons).toEqual([{ reason: 'already_paused', count: 2_500 }]);
  });

  it('takes the most ids a request may name (past the usual body limit), and refuses one more', async () => {
    const ids = Array.from({ length: bulkAppUserLimits.userIds }, () => randomUUID());
    const answer = result(await bulk({ action: 'pause', userIds: ids }));
    expect(answer).toMatchObject({ total: ids.length, done: 0, skipped: ids.length });
    expect(answer.skippedReasons).toEqual([{ reason: 'not_found', count: ids.length }]);
    expect(await bulk({ action: 'pause', userIds: [...ids, randomUUID()] })).toMatchObject({
      statusCode: 400,
    });
  });

  it('refuses a request without users, with both selections, or without the action\u2019s value', async () => {
    const user = await insertAppUser(db(), application.id);
    for (const body of [
      { action: 'pause' },
      { action: 'pause', userIds: [user.id], matching: {} },
      { action: 'pause', userIds: [] },
      { action: 'extend', userIds: [user.id] },
      { action: 'extend', days: 0, userIds: [user.id] },
      { action: 'set_expiry', userIds: [user.id] },
      { action: 'explode', userIds: [user.id] },
      { action: 'pause', userIds: ['not-a-uuid'] },
    ]) {
      const response = await bulk(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      errorBodySchema.parse(response.json());
    }
    expect((await users([user.id]))[0]!.isPaused).toBe(false);
  });
});
