import { describe, expect, it } from 'vitest';
import {
  applicationSchema,
  applicationVariableSchema,
  clientAuthResponseSchema,
  clientErrorResponseSchema,
  clientVariableResponseSchema,
  variableLimits,
  type Application,
} from '@latchkey/contracts';
import { eq } from 'drizzle-orm';
import { appUsers, appUserVariables } from '../../db/schema/index.ts';
import { createManualClock } from '../../lib/clock.ts';
import {
  callClientApi,
  createAppUserViaApi,
  createApplicationViaApi,
} from '../../../test/factories.ts';
import { ownerRequests } from '../../../test/owner-requests.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import {
  createTestDatabaseForSuite,
  signInOwnerForSuite,
  startTestAppForSuite,
} from '../../../test/suite-test-app.ts';
import { isSignedBy, startClientSession } from '../../../test/client-calls.ts';

const PASSWORD = 'correct horse battery staple';
/** Shared by the test's two instances, so both can sign with the application's key. */
const SERVER_SECRET = 'variables-test-secret-that-is-long-enough';

describe('client API: remote variables (var, user-var, user-var/set)', () => {
  const clock = createManualClock(new Date('2026-07-01T12:00:00Z'));
  const database = createTestDatabaseForSuite();
  const testApp = startTestAppForSuite({ clock, database, env: { SERVER_SECRET } });
  const owner = signInOwnerForSuite(testApp);

  const ownerCall = ownerRequests(testApp, owner);

  const newApplication = () => createApplicationViaApi(testApp.app, owner);

  const createVariable = async (
    application: Application,
    variable: { name: string; value: string; requiresSession?: boolean },
  ) => {
    const response = await ownerCall(
      'POST',
      `/api/applications/${application.id}/variables`,
      variable,
    );
    expect(response.statusCode, response.body).toBe(201);
    return applicationVariableSchema.parse(response.json());
  };

  const setUserVariableAsOwner = async (
    application: Application,
    userId: string,
    name: string,
    body: { value: string; readOnly?: boolean },
  ) => {
    const response = await ownerCall(
      'PUT',
      `/api/applications/${application.id}/users/${userId}/variables/${name}`,
      body,
    );
    expect(response.statusCode, response.body).toBe(200);
  };

  /** Logs a new user in and starts a session with login's token: a live session. */
  const startSession = async (application: Application) => {
    const user = await createAppUserViaApi(testApp.app, owner, application.id, {
      password: PASSWORD,
    });
    const token = await startClientSession(testApp.app, application, user, PASSWORD);
    return { user, token };
  };

  const call = async (
    application: Application,
    path: 'var' | 'user-var' | 'user-var/set',
    body: Record<string, unknown>,
    nonce?: string,
  ) => {
    const response = await callClientApi(testApp.app, path, {
      apiKey: application.apiKey,
      body,
      ...(nonce ? { nonce } : {}),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(isSignedBy(application.signingPublicKey, response, nonce)).toBe(true);
    return { response, answer: clientVariableResponseSchema.parse(response.json()) };
  };

  it('answers a variable that needs no session to any program of the application, signed', async () => {
    const application = await newApplication();
    await createVariable(application, {
      name: 'motd',
      value: 'Hello\nworld',
      requiresSession: false,
    });
    const nonce = 'nonce-of-this-request-1';
    const { response, answer } = await call(application, 'var', { name: 'motd' }, nonce);
    expect(answer).toEqual({
      success: true,
      message: 'Variable found',
      code: 'OK',
      name: 'motd',
      value: 'Hello\nworld',
    });
    // The signature binds the nonce: the same answer replayed to another request fails.
    expect(isSignedBy(application.signingPublicKey, response, 'another-nonce')).toBe(false);
  });

  it('answers a variable that requires a session (the default) only to a live session', async () => {
    const application = await newApplication();
    const other = await newApplication();
    await createVariable(application, { name: 'feature.flags', value: '{"beta":true}' });
    const { user, token } = await startSession(application);
    const codeOf = async (app: Application, body: Record<string, unknown>) =>
      (await call(app, 'var', body)).answer;

    expect(await codeOf(application, { name: 'feature.flags' })).toMatchObject({
      success: false,
      code: 'SESSION_INVALID',
    });
    expect(
      await codeOf(application, { name: 'feature.flags', session_token: 'sess_x_1' }),
    ).toMatchObject({
      code: 'SESSION_INVALID',
    });
    expect(
      (
        await codeOf(application, {
          name: 'feature.flags',
          session_token: `sess_${'a'.repeat(32)}_1782907200`,
        })
      ).code,
    ).toBe('SESSION_INVALID');
    // A login's token that never started a session is not live.
    const loginOnly = await callClientApi(testApp.app, 'login', {
      apiKey: application.apiKey,
      body: { username: user.username, password: PASSWORD, version: application.version },
    });
    const unstarted = clientAuthResponseSchema.parse(loginOnly.json()).session_token!;
    expect(
      (await codeOf(application, { name: 'feature.flags', session_token: unstarted })).code,
    ).toBe('SESSION_INVALID');

    const live = await codeOf(application, { name: 'feature.flags', session_token: token });
    expect(live).toMatchObject({ success: true, code: 'OK', value: '{"beta":true}' });
    // Another application's API key neither finds the variable nor accepts the session.
    expect((await codeOf(other, { name: 'feature.flags', session_token: token })).code).toBe(
      'VARIABLE_NOT_FOUND',
    );

    await ownerCall('POST', `/api/applications/${application.id}/users/${user.id}/pause`);
    expect((await codeOf(application, { name: 'feature.flags', session_token: token })).code).toBe(
      'ACCOUNT_DISABLED',
    );

    const ended = await startSession(application);
    await callClientApi(testApp.app, 'session/track', {
      apiKey: application.apiKey,
      body: { action: 'end', session_token: ended.token },
    });
    expect(
      (await codeOf(application, { name: 'feature.flags', session_token: ended.token })).code,
    ).toBe('SESSION_INVALID');
  });

  it('answers VARIABLE_NOT_FOUND for unknown names and other applications’ variables', async () => {
    const application = await newApplication();
    const other = await newApplication();
    await createVariable(other, { name: 'secret', value: 'theirs', requiresSession: false });
    const { token } = await startSession(application);
    for (const body of [
      { name: 'missing' },
      { name: 'secret' },
      { name: 'secret', session_token: token },
    ]) {
      expect((await call(application, 'var', body)).answer).toEqual({
        success: false,
        message: 'No variable with this name',
        code: 'VARIABLE_NOT_FOUND',
      });
    }
  });

  it('reads the table on every call: an owner’s change or deletion is the next answer', async () => {
    const application = await newApplication();
    const variable = await createVariable(application, {
      name: 'kill_switch',
      value: 'off',
      requiresSession: false,
    });
    expect((await call(application, 'var', { name: 'kill_switch' })).answer.value).toBe('off');
    const updated = await ownerCall(
      'PUT',
      `/api/applications/${application.id}/variables/${variable.id}`,
      { value: 'on' },
    );
    expect(updated.statusCode, updated.body).toBe(200);
    expect((await call(application, 'var', { name: 'kill_switch' })).answer.value).toBe('on');
    const gated = await ownerCall(
      'PUT',
      `/api/applications/${application.id}/variables/${variable.id}`,
      { requiresSession: true },
    );
    expect(gated.statusCode, gated.body).toBe(200);
    expect((await call(application, 'var', { name: 'kill_switch' })).answer.code).toBe(
      'SESSION_INVALID',
    );
    await ownerCall('DELETE', `/api/applications/${application.id}/variables/${variable.id}`);
    expect((await call(application, 'var', { name: 'kill_switch' })).answer.code).toBe(
      'VARIABLE_NOT_FOUND',
    );
  });

  it('answers an owner’s change at once from another instance: no instance caches a value', async () => {
    const second = await createTestApp({ clock, database, env: { SERVER_SECRET } });
    try {
      const application = await newApplication();
      const variable = await createVariable(application, {
        name: 'kill_switch',
        value: 'off',
        requiresSession: false,
      });
      const readFrom = async (instance: TestApp) => {
        const response = await callClientApi(instance.app, 'var', {
          apiKey: application.apiKey,
          body: { name: 'kill_switch' },
        });
        expect(isSignedBy(application.signingPublicKey, response)).toBe(true);
        return clientVariableResponseSchema.parse(response.json()).value;
      };
      // Read once on the second instance first, as a program running there would.
      expect(await readFrom(second)).toBe('off');
      const updated = await ownerCall(
        'PUT',
        `/api/applications/${application.id}/variables/${variable.id}`,
        { value: 'on' },
      );
      expect(updated.statusCode, updated.body).toBe(200);
      expect(await readFrom(second)).toBe('on');
    } finally {
      await second.close();
    }
  });

  it('answers APP_DISABLED while the application is inactive', async () => {
    const application = await newApplication();
    await createVariable(application, { name: 'x', value: '1', requiresSession: false });
    const { token } = await startSession(application);
    const disabled = await ownerCall('PUT', `/api/applications/${application.id}`, {
      isActive: false,
    });
    expect(applicationSchema.parse(disabled.json()).isActive).toBe(false);
    for (const [path, body] of [
      ['var', { name: 'x' }],
      ['user-var', { name: 'x', session_token: token }],
      ['user-var/set', { name: 'x', value: '2', session_token: token }],
    ] as const) {
      expect((await call(application, path, body)).answer.code).toBe('APP_DISABLED');
    }
  });

  it('lets a session read and write its own user’s variables, and no one else’s', async () => {
    const application = await newApplication();
    const alice = await startSession(application);
    const bob = await startSession(application);
    expect(
      (await call(application, 'user-var', { session_token: alice.token, name: 'theme' })).answer
        .code,
    ).toBe('VARIABLE_NOT_FOUND');
    const saved = await call(application, 'user-var/set', {
      session_token: alice.token,
      name: 'theme',
      value: 'dark',
    });
    expect(saved.answer).toEqual({
      success: true,
      message: 'Variable saved',
      code: 'OK',
      name: 'theme',
      value: 'dark',
      read_only: false,
    });
    expect(
      (await call(application, 'user-var', { session_token: alice.token, name: 'theme' })).answer,
    ).toMatchObject({
      code: 'OK',
      value: 'dark',
      read_only: false,
    });
    // Replacing keeps one row; Bob's session sees none of Alice's.
    await call(application, 'user-var/set', {
      session_token: alice.token,
      name: 'theme',
      value: 'light',
    });
    expect(
      (await call(application, 'user-var', { session_token: bob.token, name: 'theme' })).answer
        .code,
    ).toBe('VARIABLE_NOT_FOUND');
    const rows = await testApp.database.db.select().from(appUserVariables);
    expect(rows.filter((row) => row.appUserId === alice.user.id)).toMatchObject([
      { name: 'theme', value: 'light', isReadOnly: false },
    ]);
    // No session, no user: refused before anything is read or written.
    expect(
      (
        await call(application, 'user-var/set', {
          session_token: 'sess_x_1',
          name: 'theme',
          value: 'x',
        })
      ).answer.code,
    ).toBe('SESSION_INVALID');
    const missingToken = await callClientApi(testApp.app, 'user-var', {
      apiKey: application.apiKey,
      body: { name: 'theme' },
    });
    expect(missingToken.statusCode).toBe(400);
  });

  it('refuses a program’s write to a read-only variable; the owner may still change it', async () => {
    const application = await newApplication();
    const { user, token } = await startSession(application);
    await setUserVariableAsOwner(application, user.id, 'plan_seats', {
      value: '5',
      readOnly: true,
    });
    const refused = await call(application, 'user-var/set', {
      session_token: token,
      name: 'plan_seats',
      value: '500',
    });
    expect(refused.answer).toEqual({
      success: false,
      message: 'This variable is read-only: only the vendor can change it',
      code: 'VARIABLE_READ_ONLY',
    });
    expect(
      (await call(application, 'user-var', { session_token: token, name: 'plan_seats' })).answer,
    ).toMatchObject({
      value: '5',
      read_only: true,
    });
    await setUserVariableAsOwner(application, user.id, 'plan_seats', {
      value: '6',
      readOnly: false,
    });
    expect(
      (
        await call(application, 'user-var/set', {
          session_token: token,
          name: 'plan_seats',
          value: '7',
        })
      ).answer.code,
    ).toBe('OK');
  });

  it('holds at most 100 variables per user: the 101st name is refused, replacing one is not', async () => {
    const application = await newApplication();
    const { user, token } = await startSession(application);
    const limit = variableLimits.userVariablesPerUser;
    await testApp.database.db.insert(appUserVariables).values(
      Array.from({ length: limit - 1 }, (_, index) => ({
        appUserId: user.id,
        applicationId: application.id,
        name: `v${index}`,
        value: String(index),
      })),
    );
    const set = async (name: string) =>
      (await call(application, 'user-var/set', { session_token: token, name, value: 'x' })).answer;
    expect((await set('the_hundredth')).code).toBe('OK');
    expect(await set('one_too_many')).toEqual({
      success: false,
      message: 'You hold the most variables allowed: remove one before adding another',
      code: 'VARIABLE_LIMIT_REACHED',
    });
    expect((await set('v0')).code).toBe('OK');
  });

  // Two connections hold transactions at once only on PostgreSQL (PGlite has one).
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'counts under the user’s row lock: a write racing another at 99 waits, then is refused',
    async () => {
      const application = await newApplication();
      const { user, token } = await startSession(application);
      const limit = variableLimits.userVariablesPerUser;
      await testApp.database.db.insert(appUserVariables).values(
        Array.from({ length: limit - 1 }, (_, index) => ({
          appUserId: user.id,
          applicationId: application.id,
          name: `v${index}`,
          value: '',
        })),
      );
      const other = await database.connectAgain();
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      try {
        let announceLocked!: () => void;
        const locked = new Promise<void>((resolve) => (announceLocked = resolve));
        // Another writer (the owner's PUT) holds the row and is about to add the 100th.
        const holder = other.db.transaction(async (tx) => {
          await tx.select().from(appUsers).where(eq(appUsers.id, user.id)).for('no key update');
          announceLocked();
          await released;
          await tx.insert(appUserVariables).values({
            appUserId: user.id,
            applicationId: application.id,
            name: 'the_hundredth',
            value: '',
          });
        });
        await locked;
        let isSettled = false;
        const racing = call(application, 'user-var/set', {
          session_token: token,
          name: 'racer',
          value: 'x',
        }).finally(() => (isSettled = true));
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(isSettled).toBe(false);
        release();
        await holder;
        expect((await racing).answer.code).toBe('VARIABLE_LIMIT_REACHED');
        const rows = await testApp.database.db
          .select()
          .from(appUserVariables)
          .where(eq(appUserVariables.appUserId, user.id));
        expect(rows).toHaveLength(limit);
      } finally {
        // A failed expectation must not leave the other transaction holding the row.
        release();
        await other.close();
      }
    },
  );

  it('refuses values over 16 KB of UTF-8 as a signed 400, and names that break the rule', async () => {
    const application = await newApplication();
    const { token } = await startSession(application);
    const limit = variableLimits.userValueBytes;
    // Two bytes each in UTF-8: at the limit in bytes, half of it in characters.
    const atLimit = 'é'.repeat(limit / 2);
    expect(
      (
        await call(application, 'user-var/set', {
          session_token: token,
          name: 'blob',
          value: atLimit,
        })
      ).answer.code,
    ).toBe('OK');
    for (const body of [
      { session_token: token, name: 'blob', value: `${atLimit}x` },
      { session_token: token, name: 'has space', value: 'x' },
      { session_token: token, name: 'x'.repeat(65), value: 'x' },
      { session_token: token, name: 'nul', value: 'a\u0000b' },
    ]) {
      const response = await callClientApi(testApp.app, 'user-var/set', {
        apiKey: application.apiKey,
        body,
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(clientErrorResponseSchema.parse(response.json()).code).toBe('INVALID_REQUEST');
      expect(isSignedBy(application.signingPublicKey, response)).toBe(true);
    }
    // A value of control characters escapes to six bytes each in JSON: still within the body limit.
    const escaped = '\u0001'.repeat(limit);
    expect(
      (
        await call(application, 'user-var/set', {
          session_token: token,
          name: 'blob',
          value: escaped,
        })
      ).answer.code,
    ).toBe('OK');
  });
});
