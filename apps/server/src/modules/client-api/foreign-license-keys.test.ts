import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Application } from '@latchkey/contracts';
import { openDatabase, type DatabaseConnection } from '../../db/client.ts';
import { createManualClock } from '../../lib/clock.ts';
import {
  callClientApi,
  createAppUserViaApi,
  createApplicationViaApi,
  createPlanViaApi,
  generateLicensesViaApi,
} from '../../../test/factories.ts';
import { readPgliteTemplate } from '../../../test/pglite-template.ts';
import { createTestApp, signInOwner, type TestApp } from '../../../test/test-app.ts';
import { createEmptyPostgresDatabase } from '../../../test/test-database.ts';

const PASSWORD = 'correct horse battery staple';

/**
 * A fresh database (PGlite, or PostgreSQL with TEST_DATABASE_URL) whose every statement, ORM
 * or plain, is told to `record`.
 */
async function openRecordedDatabase(
  record: (text: string) => void,
): Promise<{ connection: DatabaseConnection; close: () => Promise<void> }> {
  const logQuery = (text: string) => record(text);
  const serverUrl = process.env.TEST_DATABASE_URL;
  let opened: DatabaseConnection;
  let drop = async () => {};
  if (serverUrl) {
    const created = await createEmptyPostgresDatabase(serverUrl, 'latchkey_test');
    opened = await openDatabase(
      { kind: 'postgres', url: created.url, poolSize: 5 },
      () => {},
      logQuery,
    );
    drop = created.drop;
  } else {
    const template = readPgliteTemplate();
    opened = await openDatabase(
      { kind: 'pglite', dataDir: null, ...(template ? { loadDataDir: template } : {}) },
      undefined,
      logQuery,
    );
  }
  const connection: DatabaseConnection = {
    ...opened,
    query: (statement) => {
      record(statement.text);
      return opened.query(statement);
    },
  };
  return {
    connection,
    close: async () => {
      await opened.close();
      await drop();
    },
  };
}

/**
 * A key of another application must answer exactly as a key that exists nowhere: the same
 * status, headers and bytes (the signature too, at one instant), by the same statements, so
 * neither the answer nor the work behind it tells a guesser that a key is real somewhere.
 */
describe("another application's licence key and an unknown key", () => {
  let testApp: TestApp;
  let database: Awaited<ReturnType<typeof openRecordedDatabase>>;
  let recorded: string[] | null = null;
  const clock = createManualClock(new Date('2026-06-01T12:00:00Z'));

  beforeAll(async () => {
    database = await openRecordedDatabase((text) => recorded?.push(text));
    testApp = await createTestApp({
      clock,
      database: database.connection,
      // Batched counters are written, and counter deltas folded, by timers: not while a call's
      // statements are recorded.
      env: { ACTIVITY_FLUSH_INTERVAL_MS: '60000', COUNTER_FOLD_INTERVAL_MS: '60000' },
    });
  });
  afterAll(async () => {
    await testApp.close();
    await database.close();
  });

  /**
   * The answer as a client sees it, but the request id and the Date header (the wall clock's
   * second: it may tick between two calls), and the statements it took.
   */
  const answerOf = async (
    application: Application,
    path: string,
    body: Record<string, unknown>,
    remoteAddress: string,
  ) => {
    recorded = [];
    const response = await callClientApi(testApp.app, path, {
      apiKey: application.apiKey,
      body,
      remoteAddress,
    });
    const statements = recorded;
    recorded = null;
    const { 'x-request-id': requestId, date, ...headers } = response.headers;
    expect(date).toBeDefined();
    expect(requestId).toBeDefined();
    return {
      answer: { status: response.statusCode, headers, body: response.body },
      statements,
    };
  };

  it('answer byte for byte alike, by the same statements, on every call that takes a key', async () => {
    const owner = await signInOwner(testApp.app);
    const application = await createApplicationViaApi(testApp.app, owner);
    const other = await createApplicationViaApi(testApp.app, owner);
    const plan = await createPlanViaApi(testApp.app, owner, application.id, { durationDays: 30 });
    const otherPlan = await createPlanViaApi(testApp.app, owner, other.id, { durationDays: 30 });
    await generateLicensesViaApi(testApp.app, owner, application.id, { planId: plan.id });
    const [foreign] = await generateLicensesViaApi(testApp.app, owner, other.id, {
      planId: otherPlan.id,
    });
    // The same shape as a real key, so nothing but the key's existence differs.
    const unknown = foreign!.key.replace(/[A-Z0-9]/g, (character) =>
      character === 'Q' ? 'R' : 'Q',
    );
    const user = await createAppUserViaApi(testApp.app, owner, application.id, {
      password: PASSWORD,
    });
    const calls: [string, (key: string) => Record<string, unknown>][] = [
      ['license/login', (key) => ({ license_key: key, version: application.version })],
      [
        'license/redeem',
        (key) => ({ username: user.username, password: PASSWORD, license_key: key }),
      ],
      ['register', (key) => ({ username: 'newcomer', password: PASSWORD, license_key: key })],
    ];
    let address = 1;
    for (const [path, bodyOf] of calls) {
      // Once first, so caches (the application, prepared statements) are warm for both.
      await answerOf(application, path, bodyOf(`WARM-UP-${path}`), `198.51.100.${address++}`);
      const ofForeign = await answerOf(
        application,
        path,
        bodyOf(foreign!.key),
        `198.51.100.${address++}`,
      );
      const ofUnknown = await answerOf(
        application,
        path,
        bodyOf(unknown),
        `198.51.100.${address++}`,
      );
      expect(JSON.parse(ofForeign.answer.body), path).toMatchObject({ code: 'LICENSE_INVALID' });
      expect(ofForeign.answer, path).toEqual(ofUnknown.answer);
      expect(ofForeign.statements.length, path).toBeGreaterThan(0);
      expect(ofForeign.statements, path).toEqual(ofUnknown.statements);
    }
  });
});
