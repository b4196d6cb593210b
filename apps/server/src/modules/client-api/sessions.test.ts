import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { clientSessionResponseSchema } from '@latchkey/contracts';
import { appUserSessions } from '../../db/schema/index.ts';
import { createManualClock } from '../../lib/clock.ts';
import { hashToken } from '../../lib/tokens.ts';
import { sessionsByTokens } from './session-lookup.ts';
import {
  callClientApi,
  insertAppUserWithPassword,
  insertClientApplication,
} from '../../../test/factories.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';
import { clientOutcome } from '../../../test/client-calls.ts';

const PASSWORD = 'session password';

/** A token in the client samples' format: sess_<uuid without dashes>_<unix seconds>. */
const clientToken = (at: Date) =>
  `sess_${randomUUID().replaceAll('-', '')}_${Math.floor(at.getTime() / 1000)}`;

describe('POST /api/v1/session/track', () => {
  const start = new Date('2026-04-01T12:00:00Z');
  const clock = createManualClock(start);

  const testApp = startTestAppForSuite({ clock });
  const owner = signInOwnerForSuite(testApp);

  const track = async (apiKey: string, body: Record<string, unknown>) => {
    const response = await callClientApi(testApp.app, 'session/track', { apiKey, body });
    return clientOutcome(clientSessionResponseSchema, response);
  };

  /** An application and a user who has just logged in through the API. */
  const loggedIn = async (overrides: Parameters<typeof insertClientApplication>[2] = {}) => {
    clock.set(start);
    const application = await insertClientApplication(testApp, owner.accountId, overrides);
    const user = await insertAppUserWithPassword(testApp.database.db, application.id, PASSWORD);
    const login = await callClientApi(testApp.app, 'login', {
      apiKey: application.apiKey,
      body: { username: user.username, password: PASSWORD, version: '1.0.0' },
    });
    expect(login.json()).toMatchObject({ success: true });
    return { application, user, loginToken: login.json().session_token as string };
  };

  /** Rows of a raw statement, whichever driver runs (both answer with `rows`). */
  const query = async <Row>(statement: ReturnType<typeof sql>) =>
    ((await testApp.database.db.execute(statement)) as unknown as { rows: Row[] }).rows;

  const activeSessions = async (applicationId: number) => {
    await testApp.app.activity.flush();
    const [application, dashboard] = await Promise.all([
      testApp.app.inject({
        url: `/api/applications/${applicationId}/stats`,
        headers: owner.headers,
      }),
      testApp.app.inject({ url: '/api/dashboard/stats', headers: owner.headers }),
    ]);
    return {
      application: application.json().activeSessions as number,
      dashboard: dashboard.json().totalActiveSessions as number,
    };
  };

  const sessionRow = async (token: string) => {
    const [row] = await testApp.database.db
      .select()
      .from(appUserSessions)
      .where(eq(appUserSessions.tokenHash, hashToken(token)));
    return row;
  };

  /** A user of a fresh application with one started session (the token login issued). */
  const startedSession = async (overrides: Parameters<typeof insertClientApplication>[2] = {}) => {
    const session = await loggedIn(overrides);
    const started = await track(session.application.apiKey, {
      action: 'start',
      user_id: session.user.id,
      session_token: session.loginToken,
    });
    expect(started.code).toBe('OK');
    return session;
  };

  const ownerCall = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    testApp.app.inject({ method, url, headers: owner.headers, ...(payload ? { payload } : {}) });

  it('starts a session with the token login issued, storing only its SHA-256', async () => {
    const { application, user, loginToken } = await loggedIn();
    clock.advance(5_000);
    expect(
      await track(application.apiKey, {
        action: 'start',
        user_id: user.id,
        session_token: loginToken,
      }),
    ).toEqual({ success: true, message: 'Session started', code: 'OK', session_token: loginToken });
    const rows = await testApp.database.db
      .select()
      .from(appUserSessions)
      .where(eq(appUserSessions.appUserId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      applicationId: application.id,
      tokenHash: hashToken(loginToken),
      ipAddress: '127.0.0.2',
      startedAt: clock.now(),
      lastHeartbeatAt: clock.now(),
      endedAt: null,
    });
    expect(JSON.stringify(rows)).not.toContain(loginToken);
  });

  it("starts a session with the client's own sess_ token within 10 minutes of login", async () => {
    const { application, user } = await loggedIn();
    clock.advance(10 * 60_000);
    const token = clientToken(clock.now());
    expect(
      await track(application.apiKey, { action: 'start', user_id: user.id, session_token: token }),
    ).toMatchObject({ success: true, code: 'OK', session_token: token });
  });

  it('refuses a start more than 10 minutes after the last login, or with no login', async () => {
    const { application, user, loginToken } = await loggedIn();
    clock.advance(10 * 60_000 + 1000);
    expect(
      await track(application.apiKey, {
        action: 'start',
        user_id: user.id,
        session_token: loginToken,
      }),
    ).toEqual({
      success: false,
      message: expect.stringMatching(/log in again/i),
      code: 'SESSION_INVALID',
    });
    const neverLoggedIn = await insertAppUserWithPassword(
      testApp.database.db,
      application.id,
      PASSWORD,
    );
    expect(
      (
        await track(application.apiKey, {
          action: 'start',
          user_id: neverLoggedIn.id,
          session_token: clientToken(clock.now()),
        })
      ).code,
    ).toBe('SESSION_INVALID');
  });

  it('refuses a start for unknown, foreign, paused or expired users', async () => {
    const { application, user } = await loggedIn();
    const other = await loggedIn();
    const startFor = (userId: string, apiKey = application.apiKey) =>
      track(apiKey, { action: 'start', user_id: userId, session_token: clientToken(start) });
    expect(await startFor(randomUUID())).toMatchObject({ code: 'USER_NOT_FOUND' });
    expect(await startFor('not-a-uuid')).toMatchObject({ code: 'USER_NOT_FOUND' });
    expect(await startFor(other.user.id)).toMatchObject({ code: 'USER_NOT_FOUND' });

    await testApp.app.inject({
      method: 'POST',
      url: `/api/applications/${application.id}/users/${user.id}/pause`,
      headers: owner.headers,
    });
    expect(await startFor(user.id)).toMatchObject({ code: 'ACCOUNT_DISABLED' });
  });

  it('refuses tokens that are not in the sess_ format or too short to be unguessable', async () => {
    const { application, user } = await loggedIn();
    for (const token of [
      '',
      'abc',
      'sess_abc_123',
      `sess_${'a'.repeat(31)}_1`,
      `x${clientToken(start)}`,
    ]) {
      expect(
        await track(application.apiKey, {
          action: 'start',
          user_id: user.id,
          session_token: token,
        }),
      ).toMatchObject({ success: false, code: 'SESSION_INVALID' });
    }
  });

  it('accepts a repeated start of the same session, but no other use of its token', async () => {
    const { application, user, loginToken } = await loggedIn();
    const body = { action: 'start', user_id: user.id, session_token: loginToken };
    expect((await track(application.apiKey, body)).code).toBe('OK');
    expect((await track(application.apiKey, body)).code).toBe('OK');

    const other = await insertAppUserWithPassword(testApp.database.db, application.id, PASSWORD);
    await callClientApi(testApp.app, 'login', {
      apiKey: application.apiKey,
      body: { username: other.username, password: PASSWORD, version: '1.0.0' },
    });
    expect(await track(application.apiKey, { ...body, user_id: other.id })).toMatchObject({
      code: 'SESSION_INVALID',
      message: 'This session token is already in use',
    });

    expect(
      (await track(application.apiKey, { action: 'end', session_token: loginToken })).code,
    ).toBe('OK');
    // Ended stays ended: starting it again is refused.
    expect((await track(application.apiKey, body)).code).toBe('SESSION_INVALID');
  });

  it('heartbeats and ends only a started, unended session of this application', async () => {
    const { application, user, loginToken } = await loggedIn();
    const sibling = await insertClientApplication(testApp, owner.accountId);
    const heartbeat = (apiKey = application.apiKey, token = loginToken) =>
      track(apiKey, { action: 'heartbeat', session_token: token });
    const end = (apiKey = application.apiKey, token = loginToken) =>
      track(apiKey, { action: 'end', session_token: token });
    const invalid = {
      success: false,
      message: 'Session not found or already ended',
      code: 'SESSION_INVALID',
    };

    // Not started yet.
    expect(await heartbeat()).toEqual(invalid);
    expect(await end()).toEqual(invalid);

    await track(application.apiKey, {
      action: 'start',
      user_id: user.id,
      session_token: loginToken,
    });
    expect(await heartbeat()).toEqual({
      success: true,
      message: 'Session is active',
      code: 'OK',
      session_token: loginToken,
    });
    // Another application's key cannot touch it.
    expect(await heartbeat(sibling.apiKey)).toEqual(invalid);
    expect(await end(sibling.apiKey)).toEqual(invalid);
    // Unknown tokens, including malformed ones.
    expect(await heartbeat(application.apiKey, clientToken(start))).toEqual(invalid);
    expect(await heartbeat(application.apiKey, 'garbage')).toEqual(invalid);

    expect(await end()).toEqual({
      success: true,
      message: 'Session ended',
      code: 'OK',
      session_token: loginToken,
    });
    expect(await heartbeat()).toEqual(invalid);
    expect(await end()).toEqual(invalid);
  });

  it('counts a session as active until 90 s without a heartbeat, in both stats', async () => {
    const { application, user, loginToken } = await loggedIn();
    expect(await activeSessions(application.id)).toMatchObject({ application: 0 });
    const baseline = (await activeSessions(application.id)).dashboard;

    await track(application.apiKey, {
      action: 'start',
      user_id: user.id,
      session_token: loginToken,
    });
    expect(await activeSessions(application.id)).toEqual({
      application: 1,
      dashboard: baseline + 1,
    });
    clock.advance(89_000);
    expect((await activeSessions(application.id)).application).toBe(1);
    clock.advance(2_000);
    expect(await activeSessions(application.id)).toEqual({ application: 0, dashboard: baseline });

    // A heartbeat after the silence makes it active again (it was never ended)...
    expect(
      (await track(application.apiKey, { action: 'heartbeat', session_token: loginToken })).code,
    ).toBe('OK');
    expect((await activeSessions(application.id)).application).toBe(1);
    clock.advance(60_000);
    await track(application.apiKey, { action: 'heartbeat', session_token: loginToken });
    clock.advance(60_000);
    expect((await activeSessions(application.id)).application).toBe(1);

    // ...and ending it takes it out at once.
    await track(application.apiKey, { action: 'end', session_token: loginToken });
    expect((await activeSessions(application.id)).application).toBe(0);
  });

  it('keeps heartbeats cheap: last_heartbeat_at is in no index, pages leave room', async () => {
    // A heartbeat then rewrites its row in place (a HOT update) instead of adding an entry
    // to every index of the table: most of PostgreSQL's work per heartbeat before 0002.
    const indexes = await query<{ indexdef: string }>(
      sql`select indexdef from pg_indexes where tablename = 'app_user_sessions'`,
    );
    expect(indexes.length).toBeGreaterThanOrEqual(3);
    for (const { indexdef } of indexes) expect(indexdef).not.toContain('last_heartbeat_at');
    const [table] = await query<{ reloptions: string[] | string | null }>(
      sql`select reloptions from pg_class where relname = 'app_user_sessions'`,
    );
    expect(String(table?.reloptions)).toContain('fillfactor=70');
  });

  it('looks a heartbeat up by its token even before the table is analysed', async () => {
    // Right after many sessions arrive, the planner's statistics still say the application
    // has about one. With application_id first in the token index, or "ended_at is null" in
    // the lookup (the partial index of open sessions), it then read every open session of
    // the application for each batch: 1–3 ms a batch, most of PostgreSQL's work per heartbeat.
    const { application, user } = await loggedIn();
    await query(sql`
      insert into app_user_sessions (application_id, app_user_id, token_hash)
      select ${application.id}, ${user.id}, md5(g::text) || md5((g + 1)::text)
      from generate_series(1, 2000) as g`);
    const md5 = (text: string) => createHash('md5').update(text).digest('hex');
    const tokenHashes = [1, 500, 1999].map((g) => md5(String(g)) + md5(String(g + 1)));
    const lookup = sessionsByTokens(testApp.database.db, application.id, tokenHashes);
    const [row] = await query<{ 'QUERY PLAN': unknown }>(
      sql`explain (analyze, format json) ${lookup}`,
    );
    type PlanNode = Record<string, unknown> & { Plans?: PlanNode[] };
    const explained = row!['QUERY PLAN'];
    const [{ Plan: root }] = (
      typeof explained === 'string' ? JSON.parse(explained) : explained
    ) as [{ Plan: PlanNode }];
    const nodes: PlanNode[] = [];
    const walk = (node: PlanNode) => (nodes.push(node), node.Plans?.forEach(walk));
    walk(root);
    // Three probes that read three rows, not 2,000 rows filtered down to three; the users'
    // standing, joined for heartbeat and end, must come by primary key in the same way.
    expect(root['Actual Rows']).toBe(3);
    for (const node of nodes) {
      expect(node['Actual Rows']).toBeLessThanOrEqual(3);
      expect(node['Rows Removed by Filter'] ?? 0).toBe(0);
      expect(node['Rows Removed by Join Filter'] ?? 0).toBe(0);
    }
  });

  it('never revives an ended session with a heartbeat still waiting to be written', async () => {
    const { application, user, loginToken } = await loggedIn();
    await track(application.apiKey, {
      action: 'start',
      user_id: user.id,
      session_token: loginToken,
    });
    clock.advance(1000);
    await track(application.apiKey, { action: 'heartbeat', session_token: loginToken });
    // The heartbeat's write is still queued when the session ends.
    await track(application.apiKey, { action: 'end', session_token: loginToken });
    await testApp.app.activity.flush();
    const [row] = await testApp.database.db
      .select()
      .from(appUserSessions)
      .where(eq(appUserSessions.tokenHash, hashToken(loginToken)));
    expect(row!.endedAt).toEqual(clock.now());
    expect((await activeSessions(application.id)).application).toBe(0);
  });

  it('answers 400 for a missing or unknown action and a missing or non-string token', async () => {
    const { application, user } = await loggedIn();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ session_token: clientToken(start) }, /^action: action must be start, heartbeat or end$/],
      [{ action: 'pause', session_token: 'x' }, /^action: /],
      [{ action: 'heartbeat' }, /^session_token: session_token is required$/],
      [{ action: 'end', session_token: 42 }, /^session_token: session_token must be a string$/],
      [{ action: 'start', session_token: clientToken(start) }, /^user_id: user_id is required$/],
      [
        { action: 'heartbeat', session_token: `sess_${randomBytes(200).toString('hex')}_1` },
        /at most 256/,
      ],
    ];
    for (const [body, message] of cases) {
      const response = await callClientApi(testApp.app, 'session/track', {
        apiKey: application.apiKey,
        body: { user_id: body.action === 'start' ? undefined : user.id, ...body },
      });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json()).toEqual({
        success: false,
        code: 'INVALID_REQUEST',
        message: expect.stringMatching(message),
      });
    }
  });

  it('answers APP_DISABLED for every action once the owner deactivates the application', async () => {
    const { application, user, loginToken } = await loggedIn();
    await track(application.apiKey, {
      action: 'start',
      user_id: user.id,
      session_token: loginToken,
    });
    const deactivated = await testApp.app.inject({
      method: 'PUT',
      url: `/api/applications/${application.id}`,
      headers: owner.headers,
      payload: { isActive: false },
    });
    expect(deactivated.statusCode).toBe(200);
    for (const body of [
      { action: 'start', user_id: user.id, session_token: clientToken(start) },
      { action: 'heartbeat', session_token: loginToken },
      { action: 'end', session_token: loginToken },
    ]) {
      expect((await track(application.apiKey, body)).code).toBe('APP_DISABLED');
    }
  });

  it('ends every session of an application the owner deactivates, at once', async () => {
    const sibling = await startedSession();
    const { application, loginToken } = await startedSession();
    // A second user of the same application, with a session of their own.
    const user = await insertAppUserWithPassword(testApp.database.db, application.id, PASSWORD);
    const login = await callClientApi(testApp.app, 'login', {
      apiKey: application.apiKey,
      body: { username: user.username, password: PASSWORD, version: '1.0.0' },
    });
    const token = login.json().session_token as string;
    await track(application.apiKey, { action: 'start', user_id: user.id, session_token: token });
    const before = await activeSessions(application.id);
    expect(before.application).toBe(2);

    const deactivated = await ownerCall('PUT', `/api/applications/${application.id}`, {
      isActive: false,
    });
    expect(deactivated.statusCode).toBe(200);
    expect(await activeSessions(application.id)).toEqual({
      application: 0,
      dashboard: before.dashboard - 2,
    });
    for (const ended of [await sessionRow(loginToken), await sessionRow(token)]) {
      expect(ended).toMatchObject({ endedAt: clock.now(), endReason: 'owner' });
    }
    // Another application's sessions are untouched.
    expect((await sessionRow(sibling.loginToken))?.endedAt).toBeNull();
  });

  describe("the end user's standing", () => {
    const ownerActions: {
      name: string;
      act: (applicationId: number, userId: string) => Promise<{ statusCode: number }>;
      code: string;
    }[] = [
      {
        name: 'pauses',
        act: (applicationId, userId) =>
          ownerCall('POST', `/api/applications/${applicationId}/users/${userId}/pause`),
        code: 'ACCOUNT_DISABLED',
      },
      {
        name: 'deactivates',
        act: (applicationId, userId) =>
          ownerCall('PUT', `/api/applications/${applicationId}/users/${userId}`, {
            isActive: false,
          }),
        code: 'ACCOUNT_DISABLED',
      },
      {
        name: 'sets an expiry in the past for',
        act: (applicationId, userId) =>
          ownerCall('PUT', `/api/applications/${applicationId}/users/${userId}`, {
            expiresAt: new Date(clock.now().getTime() - 60_000).toISOString(),
          }),
        code: 'ACCOUNT_EXPIRED',
      },
    ];

    for (const { name, act, code } of ownerActions) {
      it(`ends the sessions of a user the owner ${name}, and heartbeat and end answer ${code}`, async () => {
        const { application, user, loginToken } = await startedSession();
        const before = await activeSessions(application.id);
        expect(before.application).toBe(1);

        expect((await act(application.id, user.id)).statusCode).toBe(200);
        // Ended by the owner's action itself, before the client says anything.
        expect(await sessionRow(loginToken)).toMatchObject({
          endedAt: clock.now(),
          endReason: 'owner',
        });
        expect(await activeSessions(application.id)).toEqual({
          application: 0,
          dashboard: before.dashboard - 1,
        });
        for (const action of ['heartbeat', 'end']) {
          expect(
            await track(application.apiKey, { action, session_token: loginToken }),
          ).toMatchObject({ success: false, code });
        }
        expect((await sessionRow(loginToken))?.endReason).toBe('owner');
      });
    }

    it("deletes a deleted user's sessions: heartbeat and end answer SESSION_INVALID", async () => {
      const { application, user, loginToken } = await startedSession();
      const before = await activeSessions(application.id);
      const deleted = await ownerCall(
        'DELETE',
        `/api/applications/${application.id}/users/${user.id}`,
      );
      expect(deleted.statusCode).toBeLessThan(300);
      expect(await activeSessions(application.id)).toEqual({
        application: 0,
        dashboard: before.dashboard - 1,
      });
      for (const action of ['heartbeat', 'end']) {
        expect(
          await track(application.apiKey, { action, session_token: loginToken }),
        ).toMatchObject({ success: false, code: 'SESSION_INVALID' });
      }
    });

    it('ends a session whose user expired meanwhile at its next heartbeat or end', async () => {
      const expiresAt = new Date(start.getTime() + 60_000);
      const { application, user, loginToken } = await loggedIn();
      await ownerCall('PUT', `/api/applications/${application.id}/users/${user.id}`, {
        expiresAt: expiresAt.toISOString(),
      });
      const login = await callClientApi(testApp.app, 'login', {
        apiKey: application.apiKey,
        body: { username: user.username, password: PASSWORD, version: '1.0.0' },
      });
      const token = login.json().session_token as string;
      expect(token).not.toBe(loginToken);
      const body = { action: 'start', user_id: user.id, session_token: token };
      expect((await track(application.apiKey, body)).code).toBe('OK');
      // A second session, ended by the client before the expiry, keeps its reason.
      const other = clientToken(start);
      await track(application.apiKey, { ...body, session_token: other });
      await track(application.apiKey, { action: 'end', session_token: other });
      expect((await sessionRow(other))?.endReason).toBe('client');

      clock.set(expiresAt);
      expect(
        await track(application.apiKey, { action: 'heartbeat', session_token: token }),
      ).toEqual({
        success: false,
        message: 'Your account has expired. Please renew your license.',
        code: 'ACCOUNT_EXPIRED',
      });
      expect(await sessionRow(token)).toMatchObject({ endedAt: expiresAt, endReason: 'standing' });
      expect((await track(application.apiKey, { action: 'end', session_token: other })).code).toBe(
        'ACCOUNT_EXPIRED',
      );
      expect((await sessionRow(other))?.endReason).toBe('client');
    });
  });

  describe('proof of login at start', () => {
    const ATTACKER_IP = '203.0.113.9';

    it('stamps the login with its IP, HWID and the hash of the token it issued', async () => {
      const application = await insertClientApplication(testApp, owner.accountId);
      const user = await insertAppUserWithPassword(testApp.database.db, application.id, PASSWORD);
      const login = await callClientApi(testApp.app, 'login', {
        apiKey: application.apiKey,
        body: { username: user.username, password: PASSWORD, version: '1.0.0', hwid: 'HW-1' },
      });
      const [row] = await query<Record<string, unknown>>(
        sql`select last_login_ip, last_login_hwid, last_login_token_hash from app_users where id = ${user.id}`,
      );
      expect(row).toEqual({
        last_login_ip: '127.0.0.2',
        last_login_hwid: 'HW-1',
        last_login_token_hash: hashToken(login.json().session_token as string),
      });
    });

    it('refuses starts with self-made tokens from another IP: a user id is not a login', async () => {
      const { application, user, loginToken } = await loggedIn();
      const attempts = await Promise.all(
        Array.from({ length: 50 }, async () => {
          const response = await callClientApi(testApp.app, 'session/track', {
            apiKey: application.apiKey,
            remoteAddress: ATTACKER_IP,
            body: { action: 'start', user_id: user.id, session_token: clientToken(start) },
          });
          return clientSessionResponseSchema.parse(response.json());
        }),
      );
      for (const attempt of attempts) {
        expect(attempt).toEqual({
          success: false,
          message: expect.stringMatching(/session_token login returned/),
          code: 'SESSION_INVALID',
        });
      }
      expect(
        await testApp.database.db
          .select()
          .from(appUserSessions)
          .where(eq(appUserSessions.appUserId, user.id)),
      ).toHaveLength(0);

      // The rightful client: its own token from the login's IP, or the issued one from anywhere.
      expect(
        (
          await track(application.apiKey, {
            action: 'start',
            user_id: user.id,
            session_token: clientToken(start),
          })
        ).code,
      ).toBe('OK');
      const fromElsewhere = await callClientApi(testApp.app, 'session/track', {
        apiKey: application.apiKey,
        remoteAddress: ATTACKER_IP,
        body: { action: 'start', user_id: user.id, session_token: loginToken },
      });
      expect(fromElsewhere.json()).toMatchObject({ success: true, code: 'OK' });
    });

    it("requires the login's HWID when a start from the login's IP sends one", async () => {
      clock.set(start);
      const application = await insertClientApplication(testApp, owner.accountId);
      const user = await insertAppUserWithPassword(testApp.database.db, application.id, PASSWORD);
      await callClientApi(testApp.app, 'login', {
        apiKey: application.apiKey,
        body: { username: user.username, password: PASSWORD, version: '1.0.0', hwid: 'HW-1' },
      });
      const startWith = (hwid?: string) =>
        track(application.apiKey, {
          action: 'start',
          user_id: user.id,
          session_token: clientToken(start),
          ...(hwid === undefined ? {} : { hwid }),
        });
      expect((await startWith('HW-2')).code).toBe('SESSION_INVALID');
      expect((await startWith('HW-1')).code).toBe('OK');
      expect((await startWith()).code).toBe('OK');
    });
  });

  describe('the per-user session limit', () => {
    const startOwn = (apiKey: string, userId: string, token = clientToken(start)) =>
      track(apiKey, { action: 'start', user_id: userId, session_token: token });

    it('ends the oldest open sessions beyond the limit when one more starts', async () => {
      const { application, user, loginToken } = await startedSession({ maxSessionsPerUser: 2 });
      clock.advance(1000);
      const second = clientToken(start);
      expect((await startOwn(application.apiKey, user.id, second)).code).toBe('OK');
      expect((await activeSessions(application.id)).application).toBe(2);
      clock.advance(1000);
      const third = clientToken(start);
      expect((await startOwn(application.apiKey, user.id, third)).code).toBe('OK');

      expect(await sessionRow(loginToken)).toMatchObject({
        endedAt: clock.now(),
        endReason: 'replaced',
      });
      expect((await sessionRow(second))?.endedAt).toBeNull();
      expect((await sessionRow(third))?.endedAt).toBeNull();
      expect((await activeSessions(application.id)).application).toBe(2);
      // A retried start of an open session is no new session: nothing else ends.
      expect((await startOwn(application.apiKey, user.id, second)).code).toBe('OK');
      expect((await sessionRow(third))?.endedAt).toBeNull();
      expect(
        (await track(application.apiKey, { action: 'heartbeat', session_token: loginToken })).code,
      ).toBe('SESSION_INVALID');
    });

    it('keeps at most the limit open under concurrent starts for one user', async () => {
      const { application, user } = await startedSession({ maxSessionsPerUser: 1 });
      const results = await Promise.all(
        Array.from({ length: 12 }, () => startOwn(application.apiKey, user.id)),
      );
      for (const result of results) expect(result.code).toBe('OK');
      const open = await query<{ count: number }>(
        sql`select count(*)::int as count from app_user_sessions
            where app_user_id = ${user.id} and ended_at is null`,
      );
      expect(open[0]?.count).toBe(1);
    });

    it('is set by the owner (1 to 1000, null for none) and applies at once', async () => {
      const { application, user } = await startedSession();
      const put = (maxSessionsPerUser: unknown) =>
        ownerCall('PUT', `/api/applications/${application.id}`, { maxSessionsPerUser });
      for (const bad of [0, 1001, 1.5, '2']) expect((await put(bad)).statusCode).toBe(400);
      const updated = await put(1);
      expect(updated.statusCode).toBe(200);
      expect(updated.json()).toMatchObject({ maxSessionsPerUser: 1 });
      const read = await ownerCall('PUT', `/api/applications/${application.id}`, {});
      expect(read.json()).toMatchObject({ maxSessionsPerUser: 1 });

      // The client API's cached application sees the new limit on the next start.
      clock.advance(1000);
      expect((await startOwn(application.apiKey, user.id)).code).toBe('OK');
      expect((await activeSessions(application.id)).application).toBe(1);

      expect((await put(null)).json()).toMatchObject({ maxSessionsPerUser: null });
      clock.advance(1000);
      expect((await startOwn(application.apiKey, user.id)).code).toBe('OK');
      expect((await activeSessions(application.id)).application).toBe(2);
    });
  });
});
