import { asc, eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database, DatabaseConnection } from '../../db/client.ts';
import {
  activityLogs,
  applications,
  appUserSessions,
  appUsers,
  ownerAccounts,
} from '../../db/schema/index.ts';
import { createManualClock } from '../../lib/clock.ts';
import {
  callClientApi,
  insertAppUser,
  insertAppUserSession,
  insertAppUserWithPassword,
  insertApplication,
  insertClientApplication,
} from '../../../test/factories.ts';
import { createTestApp, signInOwner } from '../../../test/test-app.ts';
import { createTestDatabase } from '../../../test/test-database.ts';
import { createActivityEvents, type ActivityRecord } from '../../events/activity-events.ts';
import { createActivityRecorder } from './activity-recorder.ts';

const silentLog = pino({ level: 'silent' });

/**
 * A database whose next `failures` writes fail as a dropped connection would. A write is a
 * transaction, or a statement on its own (a group commit of log rows alone is one statement).
 */
function flakyDatabase(db: Database, failures: { count: number; code?: string }) {
  return new Proxy(db, {
    get(target, property, receiver) {
      if ((property === 'transaction' || property === 'execute') && failures.count > 0) {
        return async () => {
          failures.count -= 1;
          throw Object.assign(new Error('connection terminated'), {
            code: failures.code ?? '08006',
          });
        };
      }
      return Reflect.get(target, property, receiver);
    },
  });
}

describe('activity recorder', () => {
  let database: DatabaseConnection;
  let applicationId: number;
  let ownerAccountId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    // An owner row without the identity service: the recorder never looks at owners.
    const [account] = await database.db
      .insert(ownerAccounts)
      .values({ firebaseUid: 'recorder-test', email: 'recorder@example.com' })
      .returning();
    ownerAccountId = account!.id;
    applicationId = (await insertApplication(database.db, ownerAccountId)).id;
  });
  afterAll(() => database.close());

  const record = (overrides: Partial<ActivityRecord> = {}): ActivityRecord => ({
    applicationId,
    appUserId: null,
    username: 'someone',
    event: 'login_failed',
    success: false,
    ipAddress: '127.0.0.2',
    errorMessage: 'nope',
    metadata: { code: 'INVALID_CREDENTIALS' },
    createdAt: new Date('2026-04-01T12:00:00Z'),
    ...overrides,
  });

  const storedLogs = (application = applicationId) =>
    database.db
      .select()
      .from(activityLogs)
      .where(eq(activityLogs.applicationId, application))
      .orderBy(asc(activityLogs.id));

  const recorderFor = (
    db: Database,
    options: { flushIntervalMs?: number; batchSize?: number; acknowledgeTimeoutMs?: number } = {},
  ) =>
    createActivityRecorder({
      db,
      log: silentLog,
      events: createActivityEvents(),
      flushIntervalMs: options.flushIntervalMs ?? 60_000,
      batchSize: options.batchSize ?? 500,
      ...(options.acknowledgeTimeoutMs
        ? { acknowledgeTimeoutMs: options.acknowledgeTimeoutMs }
        : {}),
    });

  /** The database, counting the writes begun through it (transactions and lone statements). */
  const countingWrites = (db: Database) => {
    const counter = { writes: 0 };
    const counted = new Proxy(db, {
      get(target, property, receiver) {
        if (property === 'transaction' || property === 'execute') counter.writes += 1;
        return Reflect.get(target, property, receiver);
      },
    });
    return { db: counted, counter };
  };

  it('resolves each recorded row once committed: rows recorded together share one write', async () => {
    const application = (await insertApplication(database.db, ownerAccountId)).id;
    const { db, counter } = countingWrites(database.db);
    const recorder = recorderFor(db);
    const written = ['a', 'b', 'c'].map((username) =>
      recorder.recordActivity(record({ applicationId: application, username })),
    );
    // Nothing is written on the request's own tick...
    expect(recorder.pendingLogCount).toBe(3);
    // ...but on the next one, not after the 60 s timer, because someone awaits the rows.
    await Promise.all(written);
    expect((await storedLogs(application)).map((log) => log.username)).toEqual(['a', 'b', 'c']);
    expect(counter.writes).toBe(1);
    expect(recorder.pendingLogCount).toBe(0);
    await recorder.close();
  });

  it('makes rows arriving during a flush the next batch (group commit)', async () => {
    const application = (await insertApplication(database.db, ownerAccountId)).id;
    const { db, counter } = countingWrites(database.db);
    const recorder = recorderFor(db);
    const first = recorder.recordActivity(record({ applicationId: application, username: 'a' }));
    const flushing = recorder.flush(); // takes the batch now: 'a' alone
    const later = ['b', 'c'].map((username) =>
      recorder.recordActivity(record({ applicationId: application, username })),
    );
    await first;
    await Promise.all([...later, flushing]);
    expect((await storedLogs(application)).map((log) => log.username)).toEqual(['a', 'b', 'c']);
    expect(counter.writes).toBe(2);
    await recorder.close();
  });

  it('flushes counters on their own after the interval; an awaited row is written alone', async () => {
    const requestsOf = async (id: number) =>
      (await database.db.select().from(applications).where(eq(applications.id, id)))[0]!
        .totalApiRequests;
    const timed = (await insertApplication(database.db, ownerAccountId)).id;
    const recorder = recorderFor(database.db, { flushIntervalMs: 5 });
    recorder.countApiRequest(timed, new Date('2026-04-01T12:00:00Z'));
    await vi.waitFor(async () => expect(await requestsOf(timed)).toBe(1), {
      timeout: 10_000,
      interval: 5,
    });
    await recorder.close();

    // The group commit a login waits for is one statement: the counters stay for the timer.
    const riding = (await insertApplication(database.db, ownerAccountId)).id;
    const { db, counter } = countingWrites(database.db);
    const slow = recorderFor(db, { flushIntervalMs: 60_000 });
    slow.countApiRequest(riding, new Date('2026-04-01T12:00:00Z'));
    await slow.recordActivity(record({ applicationId: riding }));
    expect(await storedLogs(riding)).toHaveLength(1);
    expect(counter.writes).toBe(1);
    expect(await requestsOf(riding)).toBe(0);
    await slow.close();
    expect(await requestsOf(riding)).toBe(1);
  });

  it('rejects an awaited row it cannot write in time, and still writes it when the database is back', async () => {
    const application = (await insertApplication(database.db, ownerAccountId)).id;
    const failures = { count: Number.POSITIVE_INFINITY };
    const recorder = recorderFor(flakyDatabase(database.db, failures), {
      flushIntervalMs: 10,
      acknowledgeTimeoutMs: 200,
    });
    const started = Date.now();
    await expect(
      recorder.recordActivity(record({ applicationId: application, username: 'late' })),
    ).rejects.toThrow('activity could not be written in time');
    expect(Date.now() - started).toBeLessThan(5000);
    failures.count = 0;
    await recorder.flush();
    expect((await storedLogs(application)).map((log) => log.username)).toEqual(['late']);
    await recorder.close();
  });

  it('keeps and retries its work when the database fails, losing and reordering nothing', async () => {
    const application = (await insertApplication(database.db, ownerAccountId)).id;
    const failures = { count: 2 };
    const recorder = recorderFor(flakyDatabase(database.db, failures));
    recorder.recordActivity(record({ applicationId: application, username: 'first' }));
    recorder.countApiRequest(application, new Date('2026-04-01T12:00:01Z'));
    await expect(recorder.flush()).rejects.toThrow('connection terminated');
    recorder.recordActivity(record({ applicationId: application, username: 'second' }));
    recorder.countApiRequest(application, new Date('2026-04-01T12:00:02Z'));
    await expect(recorder.flush()).rejects.toThrow('connection terminated');
    expect(recorder.pendingLogCount).toBe(2);
    await recorder.flush();
    expect((await storedLogs(application)).map((log) => log.username)).toEqual(['first', 'second']);
    const [row] = await database.db
      .select()
      .from(applications)
      .where(eq(applications.id, application));
    expect(row).toMatchObject({
      totalApiRequests: 2,
      lastActivityAt: new Date('2026-04-01T12:00:02Z'),
    });
    await recorder.close();
  });

  it('retries on its own with backoff after a failure', async () => {
    const application = (await insertApplication(database.db, ownerAccountId)).id;
    const recorder = recorderFor(flakyDatabase(database.db, { count: 1 }), { flushIntervalMs: 2 });
    recorder.recordActivity(record({ applicationId: application }));
    await vi.waitFor(async () => expect(await storedLogs(application)).toHaveLength(1), {
      timeout: 10_000,
      interval: 5,
    });
    await recorder.close();
  });

  it('writes item by item when a batch keeps failing for a permanent reason', async () => {
    const application = (await insertApplication(database.db, ownerAccountId)).id;
    const recorder = recorderFor(flakyDatabase(database.db, { count: 3, code: '22021' }));
    recorder.recordActivity(record({ applicationId: application }));
    await expect(recorder.flush()).rejects.toThrow();
    await expect(recorder.flush()).rejects.toThrow();
    // The third permanent failure falls back to single statements, which succeed here.
    await recorder.flush();
    expect(await storedLogs(application)).toHaveLength(1);
    await recorder.close();
  });

  it('never fails a batch on deleted applications or users, or on NUL characters', async () => {
    const kept = (await insertApplication(database.db, ownerAccountId)).id;
    const doomed = (await insertApplication(database.db, ownerAccountId)).id;
    const user = await insertAppUser(database.db, kept);
    const recorder = recorderFor(database.db);
    // Deleted after the request read them, before the flush.
    await database.db.delete(applications).where(eq(applications.id, doomed));
    await database.db.delete(appUsers).where(eq(appUsers.id, user.id));
    recorder.recordActivity(record({ applicationId: doomed }));
    recorder.recordActivity(
      record({ applicationId: kept, appUserId: user.id, username: 'nul\u0000name' }),
    );
    recorder.recordActivity(
      record({ applicationId: kept, metadata: { hwid: 'a\u0000b', code: 'X' } }),
    );
    await recorder.flush();
    const logs = await storedLogs(kept);
    expect(logs).toHaveLength(2);
    expect(logs[0]).toMatchObject({ appUserId: null, username: 'nul\uFFFDname' });
    expect(logs[1]!.metadata).toEqual({ hwid: 'a\uFFFDb', code: 'X' });
    expect(await storedLogs(doomed)).toEqual([]);
    await recorder.close();
  });

  /** Flushes as the timer would: permanent failures are retried, then written item by item. */
  const flushThroughRetries = async (recorder: ReturnType<typeof recorderFor>) => {
    for (let attempt = 1; attempt < 3; attempt += 1) {
      try {
        await recorder.flush();
        return;
      } catch {
        // The recorder keeps the batch and retries it.
      }
    }
    await recorder.flush();
  };

  /** A recorder whose warnings and errors are kept, parsed, for the test to read. */
  const recorderWithLog = () => {
    const lines: { level: number; msg: string; [field: string]: unknown }[] = [];
    const recorder = createActivityRecorder({
      db: database.db,
      log: pino({ level: 'warn' }, { write: (line: string) => lines.push(JSON.parse(line)) }),
      events: createActivityEvents(),
      flushIntervalMs: 60_000,
      batchSize: 500,
    });
    return { recorder, lines };
  };

  it('writes a record with lone surrogates (bypassing the edge) with U+FFFD in their place', async () => {
    const application = (await insertApplication(database.db, ownerAccountId)).id;
    const recorder = recorderFor(database.db);
    recorder.recordActivity(
      record({
        applicationId: application,
        username: 'lone\ud800',
        errorMessage: '\udfffnope',
        metadata: { hwid: '\ud800', version: ['v\udc00'], 'key\ud800': 'x\u0000' },
      }),
    );
    await flushThroughRetries(recorder);
    const logs = await storedLogs(application);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ username: 'lone\uFFFD', errorMessage: '\uFFFDnope' });
    expect(logs[0]!.metadata).toEqual({
      hwid: '\uFFFD',
      version: ['v\uFFFD'],
      'key\uFFFD': 'x\uFFFD',
    });
    await recorder.close();
  });

  it('writes a row the database refuses alone again in safe form, marked, keeping the others', async () => {
    const application = (await insertApplication(database.db, ownerAccountId)).id;
    const { recorder, lines } = recorderWithLog();
    recorder.recordActivity(record({ applicationId: application, username: 'before' }));
    // A text field the intake does not clean (the event name) with a lone surrogate: the
    // real database refuses the row, as it refused client text before the edge check.
    recorder.recordActivity(
      record({
        applicationId: application,
        username: 'odd',
        event: 'login_failed\ud800' as ActivityRecord['event'],
      }),
    );
    recorder.recordActivity(record({ applicationId: application, username: 'after' }));
    await flushThroughRetries(recorder);
    const logs = await storedLogs(application);
    expect(logs.map((log) => log.username)).toEqual(['before', 'odd', 'after']);
    expect(logs[1]).toMatchObject({ event: 'login_failed\uFFFD' });
    expect(logs[1]!.metadata).toEqual({ code: 'INVALID_CREDENTIALS', sanitized: true });
    expect(logs[0]!.metadata).toEqual({ code: 'INVALID_CREDENTIALS' });
    expect(lines.filter((line) => line.msg.includes('writing it in safe form'))).toHaveLength(1);
    expect(lines.some((line) => line.msg.includes('even in safe form'))).toBe(false);
    await recorder.close();
  });

  it('logs the whole record at error level when even the safe form is refused', async () => {
    const application = (await insertApplication(database.db, ownerAccountId)).id;
    const { recorder, lines } = recorderWithLog();
    recorder.recordActivity(
      record({ applicationId: application, appUserId: 'not-a-uuid', username: 'unwritable' }),
    );
    recorder.recordActivity(record({ applicationId: application, username: 'fine' }));
    await flushThroughRetries(recorder);
    expect((await storedLogs(application)).map((log) => log.username)).toEqual(['fine']);
    const refusal = lines.find((line) => line.msg.includes('even in safe form'));
    expect(refusal).toMatchObject({
      level: 50,
      record: {
        applicationId: application,
        appUserId: 'not-a-uuid',
        username: 'unwritable',
        event: 'login_failed',
        metadata: { code: 'INVALID_CREDENTIALS' },
      },
    });
    expect(recorder.pendingLogCount).toBe(0);
    await recorder.close();
  });

  it('orders loginAttempts increments and resets, and writes heartbeats without reviving ended sessions', async () => {
    const application = (await insertApplication(database.db, ownerAccountId)).id;
    const user = await insertAppUser(database.db, application, { loginAttempts: 5 });
    const live = await insertAppUserSession(database.db, {
      applicationId: application,
      appUserId: user.id,
      lastHeartbeatAt: new Date('2026-04-01T12:00:00Z'),
    });
    const ended = await insertAppUserSession(database.db, {
      applicationId: application,
      appUserId: user.id,
      lastHeartbeatAt: new Date('2026-04-01T12:00:00Z'),
      endedAt: new Date('2026-04-01T12:00:05Z'),
    });
    const recorder = recorderFor(database.db);
    recorder.countFailedLogin(user.id);
    recorder.countFailedLogin(user.id);
    await recorder.flush();
    const attempts = async () =>
      (await database.db.select().from(appUsers).where(eq(appUsers.id, user.id)))[0]!.loginAttempts;
    expect(await attempts()).toBe(7);
    recorder.countFailedLogin(user.id);
    recorder.resetLoginAttempts(user.id);
    recorder.countFailedLogin(user.id);
    await recorder.flush();
    expect(await attempts()).toBe(1);

    recorder.recordHeartbeat(live.id, new Date('2026-04-01T12:01:00Z'));
    recorder.recordHeartbeat(live.id, new Date('2026-04-01T12:00:30Z'));
    recorder.recordHeartbeat(ended.id, new Date('2026-04-01T12:01:00Z'));
    await recorder.flush();
    const sessions = await database.db
      .select()
      .from(appUserSessions)
      .where(eq(appUserSessions.appUserId, user.id))
      .orderBy(asc(appUserSessions.startedAt));
    const byId = new Map(sessions.map((session) => [session.id, session]));
    expect(byId.get(live.id)!.lastHeartbeatAt).toEqual(new Date('2026-04-01T12:01:00Z'));
    expect(byId.get(ended.id)).toMatchObject({
      lastHeartbeatAt: new Date('2026-04-01T12:00:00Z'),
      endedAt: new Date('2026-04-01T12:00:05Z'),
    });
    await recorder.close();
  });

  it('tells subscribers about every recorded event, and survives a throwing one', async () => {
    const events = createActivityEvents();
    const seen: string[] = [];
    events.onRecorded(() => {
      throw new Error('broken webhook');
    });
    const unsubscribe = events.onRecorded((recorded) => seen.push(recorded.event));
    const recorder = createActivityRecorder({
      db: database.db,
      log: silentLog,
      events,
      flushIntervalMs: 60_000,
      batchSize: 500,
    });
    recorder.recordActivity(record({ event: 'user_login', success: true }));
    recorder.recordActivity(record({ event: 'hwid_mismatch' }));
    unsubscribe();
    recorder.recordActivity(record({ event: 'user_register', success: true }));
    expect(seen).toEqual(['user_login', 'hwid_mismatch']);
    await recorder.close();
  });

  it('gives up after the close deadline when the database is gone, without hanging', async () => {
    const recorder = recorderFor(flakyDatabase(database.db, { count: Number.POSITIVE_INFINITY }), {
      flushIntervalMs: 5,
    });
    recorder.recordActivity(record());
    const started = Date.now();
    await recorder.close({ deadlineMs: 50 });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(recorder.pendingLogCount).toBe(0);
  });
});

describe('activity through the app', () => {
  it('counts requests and loses no event across an app close', async () => {
    const database = await createTestDatabase();
    const clock = createManualClock(new Date('2026-04-01T12:00:00Z'));
    try {
      const testApp = await createTestApp({ clock, database });
      const owner = await signInOwner(testApp.app);
      const application = await insertClientApplication(testApp, owner.accountId);
      const user = await insertAppUserWithPassword(database.db, application.id, 'pw');
      for (const password of ['wrong', 'pw']) {
        await callClientApi(testApp.app, 'login', {
          apiKey: application.apiKey,
          body: { username: user.username, password, version: '1.0.0' },
        });
      }
      clock.advance(1000);
      await callClientApi(testApp.app, 'verify', {
        apiKey: application.apiKey,
        body: { user_id: user.id },
      });
      // Each login answered only once its event was written; the counters are batched,
      // and closing the app must write what is pending.
      expect(testApp.app.activity.pendingLogCount).toBe(0);
      expect(
        await database.db
          .select()
          .from(activityLogs)
          .where(eq(activityLogs.applicationId, application.id)),
      ).toHaveLength(2);
      await testApp.close();

      const logs = await database.db
        .select()
        .from(activityLogs)
        .where(eq(activityLogs.applicationId, application.id))
        .orderBy(asc(activityLogs.id));
      expect(logs.map((log) => [log.event, log.success])).toEqual([
        ['login_failed', false],
        ['user_login', true],
      ]);
      const [row] = await database.db
        .select()
        .from(applications)
        .where(eq(applications.id, application.id));
      expect(row).toMatchObject({
        totalApiRequests: 3,
        lastActivityAt: new Date('2026-04-01T12:00:01Z'),
      });
    } finally {
      await database.close();
    }
  });
});
