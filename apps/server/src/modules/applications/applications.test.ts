import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  MAIL_FEATURE_NEEDS_MAIL,
  applicationListSchema,
  applicationSchema,
  defaultApplicationMessages,
  deletedResponseSchema,
  errorBodySchema,
} from '@latchkey/contracts';
import {
  activityLogs,
  applications,
  appUserSessions,
  appUsers,
  blacklistEntries,
  ownerAccounts,
} from '../../db/schema/index.ts';
import { API_KEY_PATTERN } from '../../lib/api-keys.ts';
import { createManualClock } from '../../lib/clock.ts';
import {
  decryptSigningKey,
  signWithApplicationKey,
  verifyApplicationSignature,
} from '../../lib/signing-keys.ts';
import {
  createApplicationViaApi,
  insertActivityLog,
  insertApplication,
  insertAppUser,
  insertAppUserSession,
  insertBlacklistEntry,
} from '../../../test/factories.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';
import { signInOwner } from '../../../test/test-app.ts';
import {
  createApplicationEvents,
  type ApplicationChange,
} from '../../events/application-events.ts';
import { deleteApplication } from './delete-application.ts';
import { updateApplication } from './update-application.ts';
import { ownerRequests, withHeaders } from '../../../test/owner-requests.ts';

describe('owner API: applications', () => {
  const clock = createManualClock(new Date('2026-03-01T10:00:00Z'));

  const testApp = startTestAppForSuite({ clock });
  const owner = signInOwnerForSuite(testApp);

  const request = ownerRequests(testApp, owner);

  const expectBadRequest = async (
    response: Awaited<ReturnType<typeof request>>,
    message: string | RegExp,
  ) => {
    expect(response.statusCode).toBe(400);
    const body = errorBodySchema.parse(response.json());
    expect(body.code).toBe('BAD_REQUEST');
    if (typeof message === 'string') expect(body.message).toBe(message);
    else expect(body.message).toMatch(message);
  };

  const storedRow = async (id: number) => {
    const [row] = await testApp.database.db
      .select()
      .from(applications)
      .where(eq(applications.id, id));
    return row;
  };

  describe('POST /api/applications', () => {
    it('creates an application with a key, a signing key, version 1.0.0 and default texts', async () => {
      const response = await request('POST', '/api/applications', {
        name: '  My Game  ',
        description: 'A platformer',
      });
      expect(response.statusCode).toBe(201);
      const application = applicationSchema.parse(response.json());
      expect(application).toMatchObject({
        name: 'My Game',
        description: 'A platformer',
        isActive: true,
        version: '1.0.0',
        hwidLockEnabled: false,
        ...defaultApplicationMessages,
        createdAt: '2026-03-01T10:00:00.000Z',
        updatedAt: '2026-03-01T10:00:00.000Z',
      });
      expect(application.apiKey).toMatch(API_KEY_PATTERN);
      expect(application.signingPublicKey).toMatch(/^[0-9a-f]{64}$/);
      expect(Object.keys(response.json()).sort()).toEqual(
        Object.keys(applicationSchema.shape).sort(),
      );

      const row = await storedRow(application.id);
      expect(row?.ownerAccountId).toBe(owner.accountId);
      expect(response.body).not.toContain(row!.signingPrivateKeyEncrypted);
      expect(response.body).not.toContain('signingPrivateKey');
    });

    it('stores a private key that decrypts with the server secret and matches the published key', async () => {
      const application = await createApplicationViaApi(testApp.app, owner);
      const row = (await storedRow(application.id))!;
      const privateKey = decryptSigningKey(row, testApp.config.serverSecret);
      const signature = signWithApplicationKey(privateKey, 'hello');
      expect(verifyApplicationSignature(application.signingPublicKey, 'hello', signature)).toBe(
        true,
      );
      expect(() => decryptSigningKey(row, `${testApp.config.serverSecret}x`)).toThrow();
    });

    it('gives default messages the words the client samples match on', async () => {
      const application = await createApplicationViaApi(testApp.app, owner);
      expect(application.versionMismatchMessage).toContain('update');
      expect(application.hwidMismatchMessage).toContain('HWID');
      expect(application.accountExpiredMessage).toContain('expired');
      expect(application.accountDisabledMessage).toContain('disabled');
    });

    it('gives every application its own unique API key and signing key', async () => {
      const created = await Promise.all(
        Array.from({ length: 8 }, () => createApplicationViaApi(testApp.app, owner)),
      );
      expect(new Set(created.map((a) => a.apiKey)).size).toBe(created.length);
      expect(new Set(created.map((a) => a.signingPublicKey)).size).toBe(created.length);
    });

    it('stores a blank or missing description as null', async () => {
      const blank = await createApplicationViaApi(testApp.app, owner, {
        name: 'x',
        description: '   ',
      });
      const missing = await createApplicationViaApi(testApp.app, owner, { name: 'y' });
      expect(blank.description).toBeNull();
      expect(missing.description).toBeNull();
    });

    it("refuses a missing or blank name with the spec's message", async () => {
      for (const body of [{}, { name: '' }, { name: '   ' }, { description: 'only' }, null]) {
        await expectBadRequest(
          await request('POST', '/api/applications', body ?? undefined),
          'Please enter an application name',
        );
      }
    });

    it('refuses oversized text and wrong types with a 400', async () => {
      await expectBadRequest(
        await request('POST', '/api/applications', { name: 'x'.repeat(101) }),
        'name: Application name must be at most 100 characters',
      );
      expect(
        (await request('POST', '/api/applications', { name: 'x'.repeat(100) })).statusCode,
      ).toBe(201);
      await expectBadRequest(
        await request('POST', '/api/applications', { name: 'ok', description: 'd'.repeat(1001) }),
        'description: Description must be at most 1000 characters',
      );
      await expectBadRequest(await request('POST', '/api/applications', { name: 42 }), /^name: /);
      await expectBadRequest(
        await request('POST', '/api/applications', { name: 'ok', description: ['x'] }),
        /^description: /,
      );
      await expectBadRequest(await request('POST', '/api/applications', ['name']), /object/);
    });

    it('answers malformed JSON with a 400', async () => {
      await expectBadRequest(
        await request(
          'POST',
          '/api/applications',
          '{"name": "x"',
          withHeaders(owner, { 'content-type': 'application/json' }),
        ),
        'Malformed JSON in request body',
      );
    });
  });

  describe('GET /api/applications', () => {
    it("lists the owner's applications only, newest first", async () => {
      const otherOwner = await signInOwner(testApp.app);
      const foreign = await createApplicationViaApi(testApp.app, otherOwner);
      clock.advance(1000);
      const older = await createApplicationViaApi(testApp.app, owner, { name: 'older' });
      clock.advance(1000);
      const newer = await createApplicationViaApi(testApp.app, owner, { name: 'newer' });

      const response = await request('GET', '/api/applications');
      expect(response.statusCode).toBe(200);
      const list = applicationListSchema.parse(response.json());
      const ids = list.map((application) => application.id);
      expect(ids.indexOf(newer.id)).toBe(0);
      expect(ids.indexOf(older.id)).toBe(1);
      expect(ids).not.toContain(foreign.id);
      expect(response.body).not.toContain('signingPrivateKey');
    });
  });

  describe('PUT /api/applications/:id', () => {
    const fullBody = {
      name: 'Renamed',
      description: 'New description',
      version: '2.1.0',
      isActive: false,
      hwidLockEnabled: true,
      loginSuccessMessage: 'Welcome back!',
      loginFailedMessage: 'Nope',
      accountDisabledMessage: 'You are disabled',
      accountExpiredMessage: 'Your licence expired',
      versionMismatchMessage: 'Please update to 2.1.0',
      hwidMismatchMessage: 'HWID does not match',
    };

    it("applies the spec's full body and bumps updatedAt", async () => {
      const application = await createApplicationViaApi(testApp.app, owner);
      clock.advance(60_000);
      const response = await request('PUT', `/api/applications/${application.id}`, {
        ...fullBody,
        // The console may send the whole object back: unknown or immutable fields are ignored.
        id: 999,
        apiKey: 'lk_live_attacker',
        signingPublicKey: 'ff'.repeat(32),
      });
      expect(response.statusCode).toBe(200);
      const updated = applicationSchema.parse(response.json());
      expect(updated).toMatchObject(fullBody);
      expect(updated.id).toBe(application.id);
      expect(updated.apiKey).toBe(application.apiKey);
      expect(updated.signingPublicKey).toBe(application.signingPublicKey);
      expect(updated.createdAt).toBe(application.createdAt);
      expect(Date.parse(updated.updatedAt) - Date.parse(application.updatedAt)).toBe(60_000);
      expect((await storedRow(application.id))?.updatedAt.toISOString()).toBe(updated.updatedAt);
    });

    it('treats absent fields as unchanged and a blank description as none', async () => {
      const application = await createApplicationViaApi(testApp.app, owner, {
        name: 'Keep',
        description: 'keep me',
      });
      const renamed = applicationSchema.parse(
        (
          await request('PUT', `/api/applications/${application.id}`, { name: ' Only name ' })
        ).json(),
      );
      expect(renamed).toMatchObject({
        ...application,
        name: 'Only name',
        updatedAt: renamed.updatedAt,
      });
      const cleared = applicationSchema.parse(
        (await request('PUT', `/api/applications/${application.id}`, { description: '' })).json(),
      );
      expect(cleared.description).toBeNull();
      expect(cleared.name).toBe('Only name');
    });

    it('validates names, versions, flags and messages', async () => {
      const { id } = await createApplicationViaApi(testApp.app, owner);
      const url = `/api/applications/${id}`;
      await expectBadRequest(
        await request('PUT', url, { name: ' ' }),
        'Please enter an application name',
      );
      await expectBadRequest(
        await request('PUT', url, { version: '' }),
        'version: Please enter a version',
      );
      await expectBadRequest(await request('PUT', url, { version: '1'.repeat(33) }), /^version: /);
      await expectBadRequest(await request('PUT', url, { isActive: 'yes' }), /^isActive: /);
      await expectBadRequest(
        await request('PUT', url, { hwidLockEnabled: 1 }),
        /^hwidLockEnabled: /,
      );
      await expectBadRequest(
        await request('PUT', url, { loginFailedMessage: '' }),
        'loginFailedMessage: Messages cannot be empty',
      );
      await expectBadRequest(
        await request('PUT', url, { hwidMismatchMessage: 'm'.repeat(501) }),
        'hwidMismatchMessage: Messages must be at most 500 characters',
      );
      await expectBadRequest(await request('PUT', url, { name: null }), /^name: /);
      await expectBadRequest(
        await request(
          'PUT',
          url,
          '{"name":',
          withHeaders(owner, { 'content-type': 'application/json' }),
        ),
        'Malformed JSON in request body',
      );
    });

    it('fills in KeyAuth compatibility, seals its secret, and keeps owner id and name unique', async () => {
      const application = await createApplicationViaApi(testApp.app, owner, { name: 'Forge' });
      const url = `/api/applications/${application.id}`;
      expect(application).toMatchObject({
        keyauthCompatibility: false,
        keyauthOwnerId: null,
        keyauthSecret: null,
        keyauthSessionHours: 6,
      });
      const on = applicationSchema.parse(
        (await request('PUT', url, { keyauthCompatibility: true })).json(),
      );
      expect(on.keyauthOwnerId).toMatch(/^[A-Za-z0-9]{10}$/);
      expect(on.keyauthName).toBe('Forge');
      expect(on.keyauthSecret).toMatch(/^[0-9a-f]{64}$/);
      const stored = await storedRow(application.id);
      expect(stored?.keyauthSecretSealed).toMatch(/^v1\./);
      expect(stored?.keyauthSecretSealed).not.toContain(on.keyauthSecret);

      // An imported identity and secret replace the generated ones.
      const imported = applicationSchema.parse(
        (
          await request('PUT', url, {
            keyauthOwnerId: 'AbCdE12345',
            keyauthName: 'Forge Loader',
            keyauthSecret: 'AB'.repeat(32),
            keyauthSessionHours: 12,
          })
        ).json(),
      );
      expect(imported).toMatchObject({
        keyauthOwnerId: 'AbCdE12345',
        keyauthName: 'Forge Loader',
        keyauthSecret: 'ab'.repeat(32),
        keyauthSessionHours: 12,
      });

      const other = await createApplicationViaApi(testApp.app, owner, { name: 'Other' });
      const taken = await request('PUT', `/api/applications/${other.id}`, {
        keyauthCompatibility: true,
        keyauthOwnerId: 'AbCdE12345',
        keyauthName: 'Forge Loader',
      });
      expect(taken.statusCode).toBe(409);
      expect(taken.json()).toEqual({
        message: 'Another application already uses this KeyAuth owner id and name',
        code: 'CONFLICT',
        fields: [
          {
            field: 'keyauthOwnerId',
            message: 'Another application already uses this KeyAuth owner id and name',
          },
        ],
      });
      await expectBadRequest(
        await request('PUT', url, { keyauthOwnerId: 'short' }),
        'keyauthOwnerId: KeyAuth owner id must be 10 letters or digits',
      );
      await expectBadRequest(
        await request('PUT', url, { keyauthSecret: 'xyz' }),
        'keyauthSecret: KeyAuth secret must be 64 hex characters',
      );
      await expectBadRequest(
        await request('PUT', url, { keyauthName: '' }),
        'KeyAuth compatibility needs an owner id and a name',
      );
      const off = applicationSchema.parse(
        (await request('PUT', url, { keyauthCompatibility: false })).json(),
      );
      expect(off).toMatchObject({ keyauthCompatibility: false, keyauthOwnerId: 'AbCdE12345' });
    });

    it('answers unknown ids with 404 and malformed ids with 400', async () => {
      const notFound = await request('PUT', '/api/applications/2147483647', { name: 'x' });
      expect(notFound.statusCode).toBe(404);
      expect(notFound.json()).toEqual({ message: 'Application not found', code: 'NOT_FOUND' });
      for (const id of ['abc', '0', '-1', '1.5', '1e3', '2147483648', '99999999999', '%20']) {
        await expectBadRequest(
          await request('PUT', `/api/applications/${id}`, { name: 'x' }),
          'id: Invalid application id',
        );
      }
    });
  });

  describe('DELETE /api/applications/:id', () => {
    it('deletes the application with its users, sessions, logs and blacklist entries', async () => {
      const db = testApp.database.db;
      const doomed = await createApplicationViaApi(testApp.app, owner);
      const kept = await createApplicationViaApi(testApp.app, owner);
      for (const application of [doomed, kept]) {
        const user = await insertAppUser(db, application.id);
        await insertAppUserSession(db, {
          applicationId: application.id,
          appUserId: user.id,
          lastHeartbeatAt: new Date(),
        });
        await insertActivityLog(db, {
          applicationId: application.id,
          appUserId: user.id,
          event: 'user_login',
          success: true,
        });
        await insertBlacklistEntry(db, {
          ownerAccountId: owner.accountId,
          applicationId: application.id,
        });
      }
      const globalEntry = await insertBlacklistEntry(db, { ownerAccountId: owner.accountId });

      const response = await request('DELETE', `/api/applications/${doomed.id}`);
      expect(response.statusCode).toBe(200);
      expect(deletedResponseSchema.parse(response.json())).toEqual({
        success: true,
        message: 'Application deleted successfully',
      });

      const remaining = async (applicationId: number) => ({
        applications: await db
          .select()
          .from(applications)
          .where(eq(applications.id, applicationId)),
        users: await db.select().from(appUsers).where(eq(appUsers.applicationId, applicationId)),
        sessions: await db
          .select()
          .from(appUserSessions)
          .where(eq(appUserSessions.applicationId, applicationId)),
        logs: await db
          .select()
          .from(activityLogs)
          .where(eq(activityLogs.applicationId, applicationId)),
        blacklist: await db
          .select()
          .from(blacklistEntries)
          .where(eq(blacklistEntries.applicationId, applicationId)),
      });
      expect(await remaining(doomed.id)).toEqual({
        applications: [],
        users: [],
        sessions: [],
        logs: [],
        blacklist: [],
      });
      const survivors = await remaining(kept.id);
      expect(Object.values(survivors).map((rows) => rows.length)).toEqual([1, 1, 1, 1, 1]);
      const [global] = await db
        .select()
        .from(blacklistEntries)
        .where(eq(blacklistEntries.id, globalEntry.id));
      expect(global).toBeDefined();

      const again = await request('DELETE', `/api/applications/${doomed.id}`);
      expect(again.statusCode).toBe(404);
    });

    it('answers unknown ids with 404 and malformed ids with 400', async () => {
      expect((await request('DELETE', '/api/applications/123456')).json()).toEqual({
        message: 'Application not found',
        code: 'NOT_FOUND',
      });
      await expectBadRequest(
        await request('DELETE', '/api/applications/not-a-number'),
        'id: Invalid application id',
      );
    });
  });

  describe('invalidation hook', () => {
    it('announces updates and deletions (with the API key) after they happen', async () => {
      const db = testApp.database.db;
      const [account] = await db
        .select()
        .from(ownerAccounts)
        .where(eq(ownerAccounts.id, owner.accountId));
      const events = createApplicationEvents();
      const changes: ApplicationChange[] = [];
      const stop = events.onChange((change) => {
        changes.push(change);
      });
      events.onChange(() => {
        throw new Error('a broken listener must not break the others or the request');
      });
      const ctx = {
        db,
        log: testApp.app.log,
        clock,
        account: account!,
        actor: { token: null, ipAddress: '127.0.0.1' },
        applicationEvents: events,
        isMailAvailable: false,
        serverSecret: testApp.config.serverSecret,
      };
      const application = await insertApplication(db, owner.accountId);

      await updateApplication({
        ctx,
        input: { applicationId: application.id, changes: { version: '9.9.9' } },
      });
      await deleteApplication({ ctx, input: { applicationId: application.id } });
      await expect(
        deleteApplication({ ctx, input: { applicationId: application.id } }),
      ).rejects.toThrow('Application not found');
      expect(changes).toEqual([
        { kind: 'updated', applicationId: application.id, apiKey: application.apiKey },
        { kind: 'deleted', applicationId: application.id, apiKey: application.apiKey },
      ]);
      stop();
      const rows = await db
        .select()
        .from(applications)
        .where(inArray(applications.id, [application.id]));
      expect(rows).toEqual([]);
    });
  });

  it('lists every refused field of a body in words, the message naming the first by its path', async () => {
    const { id } = await createApplicationViaApi(testApp.app, owner);
    const response = await request('PUT', `/api/applications/${id}`, {
      version: '',
      maxSessionsPerUser: 1.5,
      isActive: 'yes',
      loginFailedMessage: '',
    });
    expect(response.statusCode).toBe(400);
    const body = errorBodySchema.parse(response.json());
    expect(body.message).toBe('version: Please enter a version');
    expect(body.fields).toEqual([
      { field: 'version', message: 'Please enter a version' },
      { field: 'isActive', message: 'Must be on or off' },
      { field: 'maxSessionsPerUser', message: 'Session limit must be a whole number' },
      { field: 'loginFailedMessage', message: 'Messages cannot be empty' },
    ]);
    // A refusal that is not about the body's fields lists none.
    const missing = await request('PUT', '/api/applications/999999', { name: 'Gone' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).not.toHaveProperty('fields');
  });

  it('keeps mail features off while the server sends no mail, and one on stays on', async () => {
    const db = testApp.database.db;
    const [account] = await db
      .select()
      .from(ownerAccounts)
      .where(eq(ownerAccounts.id, owner.accountId));
    const ctx = {
      db,
      log: testApp.app.log,
      clock,
      account: account!,
      actor: { token: null, ipAddress: '127.0.0.1' },
      applicationEvents: createApplicationEvents(),
      isMailAvailable: false,
      serverSecret: testApp.config.serverSecret,
    };
    const application = await insertApplication(db, owner.accountId);
    const update = (changes: Record<string, unknown>) =>
      updateApplication({ ctx, input: { applicationId: application.id, changes } });
    for (const changes of [{ requireVerifiedEmail: true }, { newDeviceMail: true }]) {
      await expect(update(changes)).rejects.toMatchObject({
        statusCode: 409,
        message: MAIL_FEATURE_NEEDS_MAIL,
      });
    }
    // Switched on while mail was configured: saving other settings does not trip over it.
    await db
      .update(applications)
      .set({ requireVerifiedEmail: true })
      .where(eq(applications.id, application.id));
    const saved = await update({ requireVerifiedEmail: true, version: '2.0' });
    expect(saved).toMatchObject({ requireVerifiedEmail: true, version: '2.0' });
    expect(await update({ requireVerifiedEmail: false })).toMatchObject({
      requireVerifiedEmail: false,
    });
  });
});
