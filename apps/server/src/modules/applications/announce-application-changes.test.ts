import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseConnection } from '../../db/client.ts';
import { insertAppUser, insertApplication } from '../../../test/factories.ts';
import { createTestApp, signInOwner } from '../../../test/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/test-database.ts';
import {
  createApplicationEvents,
  type ApplicationChange,
} from '../../events/application-events.ts';
import {
  APPLICATION_CHANGES_CHANNEL,
  shareApplicationChanges,
} from './share-application-changes.ts';

const log = pino({ level: 'silent' });
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

  it('settles the change only once its notification is back on this instance', async () => {
    const { observed, heard } = observedDatabase(database);
    const events = createApplicationEvents();
    let unconfirmed = 0;
    const stop = await shareApplicationChanges({
      database: observed,
      applicationEvents: events,
      log,
      onUnconfirmed: () => (unconfirmed += 1),
    });
    try {
      await events.emitChange(pause, log);
      expect(heard.map((payload) => JSON.parse(payload) as unknown)).toEqual([
        expect.objectContaining({ ...pause, sequence: 1 }),
      ]);
      expect(unconfirmed).toBe(0);
    } finally {
      await stop();
    }
  });

  it('answers anyway after the bounded wait when the echo is lost, and counts it', async () => {
    const { observed } = observedDatabase(database, { isEchoLost: true });
    const events = createApplicationEvents();
    let unconfirmed = 0;
    const stop = await shareApplicationChanges({
      database: observed,
      applicationEvents: events,
      log,
      onUnconfirmed: () => (unconfirmed += 1),
      confirmTimeoutMs: 200,
    });
    try {
      const startedAt = performance.now();
      await events.emitChange(pause, log);
      // A lower bound only: load can lengthen the wait, never shorten it.
      expect(performance.now() - startedAt).toBeGreaterThanOrEqual(195);
      expect(unconfirmed).toBe(1);
    } finally {
      await stop();
    }
  });

  it("holds the owner's answer to a pause, a deactivation and a deletion until announced", async () => {
    // With the echo lost, each answer takes the whole bounded wait (250 ms): proof that the
    // owner routes wait for the announcement rather than answering beside it.
    const { observed } = observedDatabase(database, { isEchoLost: true });
    const testApp = await createTestApp({ database: observed });
    try {
      const owner = await signInOwner(testApp.app);
      const application = await insertApplication(database.db, owner.accountId);
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
      expect(await timed('POST', `${base}/users/${user.id}/pause`)).toBeGreaterThanOrEqual(245);
      expect(await timed('PUT', base, { isActive: false })).toBeGreaterThanOrEqual(245);
      expect(await timed('DELETE', `${base}/users/${user.id}`)).toBeGreaterThanOrEqual(245);
    } finally {
      await testApp.close();
    }
  });
});
