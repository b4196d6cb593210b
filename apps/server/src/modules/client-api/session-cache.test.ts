import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { clientSessionResponseSchema } from '@latchkey/contracts';
import { createManualClock } from '../../lib/clock.ts';
import {
  callClientApi,
  insertAppUserWithPassword,
  insertClientApplication,
} from '../../../test/factories.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';
import { clientOutcome } from '../../../test/client-calls.ts';

const PASSWORD = 'session cache password';

/**
 * Heartbeats served from memory (session-lookup.ts): each test first heartbeats once, so the
 * session is cached, then ends it in one of the ways a session ends and expects the next
 * heartbeat to be refused, as it is when the lookup goes to the database.
 */
describe('open client sessions kept in memory', () => {
  const start = new Date('2026-04-01T12:00:00Z');
  const clock = createManualClock(start);

  const testApp = startTestAppForSuite({ clock });
  const owner = signInOwnerForSuite(testApp);

  const track = async (apiKey: string, body: Record<string, unknown>) => {
    const response = await callClientApi(testApp.app, 'session/track', { apiKey, body });
    return clientOutcome(clientSessionResponseSchema, response);
  };
  const ownerCall = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    testApp.app.inject({ method, url, headers: owner.headers, ...(payload ? { payload } : {}) });
  const clientToken = () =>
    `sess_${randomUUID().replaceAll('-', '')}_${Math.floor(clock.now().getTime() / 1000)}`;

  /** A started session that has heartbeated once, so its next heartbeat comes from memory. */
  const cachedSession = async (overrides: Parameters<typeof insertClientApplication>[2] = {}) => {
    clock.set(start);
    const application = await insertClientApplication(testApp, owner.accountId, overrides);
    const user = await insertAppUserWithPassword(testApp.database.db, application.id, PASSWORD);
    const login = await callClientApi(testApp.app, 'login', {
      apiKey: application.apiKey,
      body: { username: user.username, password: PASSWORD, version: '1.0.0' },
    });
    const token = login.json().session_token as string;
    const started = await track(application.apiKey, {
      action: 'start',
      user_id: user.id,
      session_token: token,
    });
    expect(started.code).toBe('OK');
    const heartbeat = () =>
      track(application.apiKey, { action: 'heartbeat', session_token: token });
    expect((await heartbeat()).code).toBe('OK');
    return { application, user, token, heartbeat };
  };

  const endInSql = (token: string) =>
    testApp.database.query({
      text: `update app_user_sessions set ended_at = now(), end_reason = 'owner'
             where token_hash = encode(sha256(convert_to($1, 'UTF8')), 'hex')`,
      values: [token],
    });

  it('answers a heartbeat from memory: a change no event announced shows once the entry expires', async () => {
    const { token, heartbeat } = await cachedSession();
    const ended = await endInSql(token);
    expect(ended.rowCount).toBe(1);
    // Plain SQL announces nothing: the cached session is still open until its TTL ends.
    expect((await heartbeat()).code).toBe('OK');
    clock.advance(testApp.config.clientApi.applicationCacheTtlMs + 1);
    expect((await heartbeat()).code).toBe('SESSION_INVALID');
  });

  it('refuses a heartbeat once the client ended the session', async () => {
    const { application, token, heartbeat } = await cachedSession();
    expect((await track(application.apiKey, { action: 'end', session_token: token })).code).toBe(
      'OK',
    );
    expect((await heartbeat()).code).toBe('SESSION_INVALID');
  });

  it('refuses a heartbeat once a newer session replaced it at the session limit', async () => {
    const { application, user, heartbeat } = await cachedSession({ maxSessionsPerUser: 1 });
    clock.advance(1000);
    const newer = await track(application.apiKey, {
      action: 'start',
      user_id: user.id,
      session_token: clientToken(),
    });
    expect(newer.code).toBe('OK');
    expect((await heartbeat()).code).toBe('SESSION_INVALID');
  });

  it('keeps a session the owner ended by pausing the user ended after the user is resumed', async () => {
    const { application, user, heartbeat } = await cachedSession();
    const usersUrl = `/api/applications/${application.id}/users/${user.id}`;
    expect((await ownerCall('POST', `${usersUrl}/pause`)).statusCode).toBe(200);
    expect((await heartbeat()).code).toBe('ACCOUNT_DISABLED');
    expect((await ownerCall('POST', `${usersUrl}/unpause`)).statusCode).toBe(200);
    expect((await heartbeat()).code).toBe('SESSION_INVALID');
  });

  it('keeps sessions ended by deactivating the application ended after it is active again', async () => {
    const { application, heartbeat } = await cachedSession();
    const url = `/api/applications/${application.id}`;
    expect((await ownerCall('PUT', url, { isActive: false })).statusCode).toBe(200);
    expect((await heartbeat()).code).toBe('APP_DISABLED');
    expect((await ownerCall('PUT', url, { isActive: true })).statusCode).toBe(200);
    expect((await heartbeat()).code).toBe('SESSION_INVALID');
  });

  it("refuses a deleted user's session", async () => {
    const { application, user, heartbeat } = await cachedSession();
    const deleted = await ownerCall(
      'DELETE',
      `/api/applications/${application.id}/users/${user.id}`,
    );
    expect(deleted.statusCode).toBeLessThan(300);
    expect((await heartbeat()).code).toBe('SESSION_INVALID');
  });

  it("follows the owner's change of the user's standing at once", async () => {
    const { application, user, heartbeat } = await cachedSession();
    const url = `/api/applications/${application.id}/users/${user.id}`;
    const expired = await ownerCall('PUT', url, {
      expiresAt: new Date(clock.now().getTime() - 1000).toISOString(),
    });
    expect(expired.statusCode, expired.body).toBe(200);
    expect((await heartbeat()).code).toBe('ACCOUNT_EXPIRED');
  });
});
