import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applications, appUsers, ownerAccounts } from '../../db/schema/index.ts';
import { systemClock } from '../../lib/clock.ts';
import { generateSigningKeyPair } from '../../lib/signing-keys.ts';
import { createApplicationEvents } from '../../events/application-events.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/test-database.ts';
import { insertAppUser, insertAppUserSession, insertApplication } from '../../../test/factories.ts';
import { createClientAppCache } from './client-app-cache.ts';
import { createSessionLookup } from './session-lookup.ts';
import { createUserStandingLookup } from './user-standing-lookup.ts';

const SERVER_SECRET = 'caches-while-unlinked-test-secret-0123456789';

/**
 * The client API's caches trust that every change made by any instance is announced to them.
 * While the link that carries announcements is down, a change made elsewhere goes unheard: so
 * from the loss until the link is back, nothing read may be kept, and what was kept before is
 * dropped at both ends. Each cache here is the real one, on a real database.
 */
describe('the client caches while the link to other instances is down', () => {
  let database: TestDatabase;
  const events = createApplicationEvents();
  const log = pino({ level: 'silent' });
  const hour = 3_600_000;
  let caches: {
    applications: ReturnType<typeof createClientAppCache>;
    standing: ReturnType<typeof createUserStandingLookup>;
    sessions: ReturnType<typeof createSessionLookup>;
  };
  let application: typeof applications.$inferSelect;
  let user: typeof appUsers.$inferSelect;
  let tokenHash: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    const [account] = await database.db
      .insert(ownerAccounts)
      .values({ firebaseUid: 'unlinked-test', email: 'unlinked@example.com' })
      .returning();
    application = await insertApplication(database.db, account!.id, {
      ...generateSigningKeyPair(SERVER_SECRET),
    });
    user = await insertAppUser(database.db, application.id);
    tokenHash = (
      await insertAppUserSession(database.db, {
        applicationId: application.id,
        appUserId: user.id,
        lastHeartbeatAt: new Date(),
      })
    ).tokenHash;
    const common = { db: database.db, clock: systemClock, applicationEvents: events, ttlMs: hour };
    const standing = createUserStandingLookup(common);
    caches = {
      applications: createClientAppCache({ ...common, serverSecret: SERVER_SECRET }),
      standing,
      sessions: createSessionLookup({
        ...common,
        userStanding: standing,
        idleSessionMs: 24 * hour,
      }),
    };
  });
  afterAll(() => database.close());

  /** A change another instance made, whose announcement this one never heard. */
  const changeElsewhere = async (isPaused: boolean, version: string) => {
    await database.db.update(appUsers).set({ isPaused }).where(eq(appUsers.id, user.id));
    await database.db
      .update(applications)
      .set({ version })
      .where(eq(applications.id, application.id));
  };
  const read = async () => ({
    version: (await caches.applications.load(application.apiKey))?.version,
    isPaused: (await caches.standing.load(user.id))?.isPaused,
    isSessionPaused: (await caches.sessions.find(application.id, tokenHash))?.isPaused,
  });

  it('keep what they read while linked: an unannounced change is not seen (the TTL bounds it)', async () => {
    await changeElsewhere(false, '1.0.0');
    expect(await read()).toEqual({ version: '1.0.0', isPaused: false, isSessionPaused: false });
    await changeElsewhere(true, '2.0.0');
    expect(await read()).toEqual({ version: '1.0.0', isPaused: false, isSessionPaused: false });
  });

  it('drop everything at the loss, and keep nothing they read until the link is back', async () => {
    await events.emitChange({ kind: 'resync', isLinked: false }, log);
    expect(caches.applications.peek(application.apiKey)).toBeUndefined();
    expect(await read()).toEqual({ version: '2.0.0', isPaused: true, isSessionPaused: true });
    // Unheard: without the rule, the reads above would now be served from memory.
    await changeElsewhere(false, '3.0.0');
    expect(await read()).toEqual({ version: '3.0.0', isPaused: false, isSessionPaused: false });
    expect(caches.applications.peek(application.apiKey)).toBeUndefined();
  });

  it('cache again once the link is back, after dropping what the gap left', async () => {
    await events.emitChange({ kind: 'resync', isLinked: true }, log);
    expect(await read()).toEqual({ version: '3.0.0', isPaused: false, isSessionPaused: false });
    expect(caches.applications.peek(application.apiKey)?.version).toBe('3.0.0');
  });
});
