import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseConnection } from '../../db/client.ts';
import {
  callClientApi,
  createPlanViaApi,
  generateLicensesViaApi,
  insertAppUser,
  insertAppUserWithPassword,
  insertClientApplication,
} from '../../../test/factories.ts';
import { createTestApp, signInOwner } from '../../../test/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/test-database.ts';
import {
  createApplicationEvents,
  type ApplicationChange,
  type ApplicationEvents,
} from '../../events/application-events.ts';
import { inlineAnnouncementColumns } from '../../events/inline-announcement-columns.ts';
import { rowsOf } from '../../db/rows-of.ts';
import {
  APPLICATION_CHANGES_CHANNEL,
  shareApplicationChanges,
} from './share-application-changes.ts';

const log = pino({ level: 'silent' });
const isPostgres = Boolean(process.env.TEST_DATABASE_URL);
const pause: ApplicationChange = {
  kind: 'end-user-changed',
  applicationId: 1,
  userId: '00000000-0000-4000-8000-000000000001',
};

/**
 * The database as it is, except that what arrives on the change channel's LISTEN connection
 * is seen by the test first, and can be lost (a network fault between the listener and
 * PostgreSQL), as `flakyDatabase` in the activity recorder's tests fails writes.
 */
function observedDatabase(database: DatabaseConnection, options: { isEchoLost?: boolean } = {}) {
  const heard: string[] = [];
  const observed: DatabaseConnection = {
    ...database,
    listen: (channel, handlers) =>
      database.listen(channel, {
        ...handlers,
        onPayload(payload) {
          if (channel !== APPLICATION_CHANGES_CHANNEL) return handlers.onPayload(payload);
          heard.push(payload);
          if (!options.isEchoLost) handlers.onPayload(payload);
        },
      }),
  };
  return { observed, heard };
}

/**
 * An owner's change is answered only once its announcement has come back
 * to this instance's own LISTEN connection (every instance's listener receives a NOTIFY at
 * the same moment), or after a bounded wait that is counted.
 */
describe('announcing a change to the other instances', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  /**
   * Runs `body` with this instance's changes shared over `database` as observed; stops sharing
   * after. `unconfirmed()` counts the announcements that missed their confirmation.
   */
  async function sharing(
    options: { isEchoLost?: boolean; confirmTimeoutMs?: number },
    body: (shared: {
      events: ApplicationEvents;
      observed: DatabaseConnection;
      heard: string[];
      unconfirmed: () => number;
    }) => Promise<void>,
  ) {
    const { observed, heard } = observedDatabase(database, { isEchoLost: options.isEchoLost });
    const events = createApplicationEvents();
    let unconfirmed = 0;
    const stop = await shareApplicationChanges({
      database: observed,
      applicationEvents: events,
      log,
      onUnconfirmed: () => (unconfirmed += 1),
      confirmTimeoutMs: options.confirmTimeoutMs,
    });
    try {
      await body({ events, observed, heard, unconfirmed: () => unconfirmed });
    } finally {
      await stop();
    }
    return events;
  }
  const payloadsOf = (heard: string[]) => heard.map((payload) => JSON.parse(payload) as unknown);

  it('settles the change only once its notification is back on this instance', async () => {
    await sharing({}, async ({ events, heard, unconfirmed }) => {
      await events.emitChange(pause, log);
      expect(payloadsOf(heard)).toEqual([expect.objectContaining({ ...pause, sequence: 1 })]);
      expect(unconfirmed()).toBe(0);
    });
  });

  it('answers anyway after the bounded wait when the echo is lost, and counts it', async () => {
    await sharing({ isEchoLost: true, confirmTimeoutMs: 200 }, async ({ events, unconfirmed }) => {
      const startedAt = performance.now();
      await events.emitChange(pause, log);
      // A lower bound only: load can lengthen the wait, never shorten it.
      expect(performance.now() - startedAt).toBeGreaterThanOrEqual(195);
      expect(unconfirmed()).toBe(1);
    });
  });

  it('settles an announcement sent by the statement that made the change on its echo', async () => {
    await sharing({}, async ({ events, observed, heard, unconfirmed }) => {
      const announcement = events.announceWithin(pause);
      if (!announcement) throw new Error('no announcer while changes are shared');
      // Emitted as announced, the change reaches this instance's listeners but is not sent
      // again: only the statement's NOTIFY goes out.
      await events.emitChange({ ...pause, isAnnounced: true }, log);
      const [row] = rowsOf<{ otherListeners: number }>(
        await observed.db.execute(
          sql`select ${inlineAnnouncementColumns({
            channel: sql`${announcement.channel}`,
            payload: sql`${announcement.payload}`,
            listenerName: sql`${announcement.listenerName}`,
          })}`,
        ),
      );
      // This instance's own listener is not another.
      expect(row?.otherListeners).toBe(isPostgres ? 0 : -1);
      await announcement.settle(Math.max(0, row?.otherListeners ?? 0));
      expect(payloadsOf(heard)).toEqual([expect.objectContaining({ ...pause, sequence: 1 })]);
      expect(unconfirmed()).toBe(0);
    });
  });

  it('settles at once, and counts no miss, an announcement its statement did not send', async () => {
    // Echo lost: were the announcement still awaited, settling would take the bounded wait.
    const events = await sharing(
      { isEchoLost: true, confirmTimeoutMs: 60_000 },
      async ({ events, heard, unconfirmed }) => {
        await events.announceWithin(pause)?.settle(null);
        expect(heard).toEqual([]);
        expect(unconfirmed()).toBe(0);
      },
    );
    // Nothing to announce without the sharing.
    expect(events.announceWithin(pause)).toBeNull();
  });

  it("holds the answer to a redemption, and the owner's to a pause, a deactivation and a deletion, until announced", async () => {
    // With the echo lost, each answer takes the whole bounded wait (250 ms): proof that these
    // routes wait for the announcement rather than answering beside it.
    const { observed } = observedDatabase(database, { isEchoLost: true });
    const testApp = await createTestApp({ database: observed });
    try {
      const owner = await signInOwner(testApp.app);
      const application = await insertClientApplication(testApp, owner.accountId);
      const user = await insertAppUser(database.db, application.id);
      const timed = async (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
        const startedAt = performance.now();
        const response = await testApp.app.inject({
          method,
          url,
          headers: owner.headers,
          ...(payload ? { payload } : {}),
        });
        expect(response.statusCode, response.body).toBe(200);
        return performance.now() - startedAt;
      };
      const base = `/api/applications/${application.id}`;
      // A client's redemption changes what verify caches of its user: its answer waits too.
      const plan = await createPlanViaApi(testApp.app, owner, application.id, { durationDays: 30 });
      const [key] = await generateLicensesViaApi(testApp.app, owner, application.id, {
        planId: plan.id,
      });
      const redeemer = await insertAppUserWithPassword(database.db, application.id, 'pw');
      const startedAt = performance.now();
      const redeemed = await callClientApi(testApp.app, 'license/redeem', {
        apiKey: application.apiKey,
        body: { username: redeemer.username, password: 'pw', license_key: key!.key },
      });
      expect(redeemed.json().code, redeemed.body).toBe('OK');
      expect(performance.now() - startedAt).toBeGreaterThanOrEqual(245);
      expect(await timed('POST', `${base}/users/${user.id}/pause`)).toBeGreaterThanOrEqual(245);
      expect(await timed('PUT', base, { isActive: false })).toBeGreaterThanOrEqual(245);
      expect(await timed('DELETE', `${base}/users/${user.id}`)).toBeGreaterThanOrEqual(245);
    } finally {
      await testApp.close();
    }
  });
});
