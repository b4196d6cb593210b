import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  clientAuthResponseSchema,
  seatLeaseListSchema,
  type Application,
  type AppUser,
  type CreatePlanRequest,
} from '@latchkey/contracts';
import { activityLogs, seatLeases } from '../../db/schema/index.ts';
import { createManualClock } from '../../lib/clock.ts';
import {
  callClientApi,
  createApplicationViaApi,
  createPlanHolderViaApi,
} from '../../../test/factories.ts';
import { clientOutcome } from '../../../test/client-calls.ts';
import { signInOwnerForSuite, startTwoInstancesForSuite } from '../../../test/suite-test-app.ts';

const PASSWORD = 'correct horse battery staple';
const MINUTE_MS = 60_000;

/**
 * Floating seats: a holder of a floating plan runs as many sessions at once as it has seats,
 * on any machines, each login leasing one. Two instances share one database.
 */
describe('floating seats', () => {
  const start = new Date('2026-06-01T12:00:00Z');
  const clock = createManualClock(start);
  const { first, second } = startTwoInstancesForSuite({ clock });
  const owner = signInOwnerForSuite(first);

  const login = async (
    instance: typeof first,
    application: Application,
    user: AppUser,
    hwid: string,
  ) =>
    clientOutcome(
      clientAuthResponseSchema,
      await callClientApi(instance.app, 'login', {
        apiKey: application.apiKey,
        body: { username: user.username, password: PASSWORD, version: application.version, hwid },
      }),
    );
  const track = async (
    instance: typeof first,
    application: Application,
    body: Record<string, unknown>,
  ) =>
    (
      await callClientApi(instance.app, 'session/track', { apiKey: application.apiKey, body })
    ).json() as { code: string };

  const setUp = async (
    applicationSettings: Record<string, unknown> = {},
    planSettings: Partial<CreatePlanRequest> = {},
  ) => {
    clock.set(start);
    const application = await createApplicationViaApi(first.app, owner);
    if (Object.keys(applicationSettings).length > 0) {
      const updated = await first.app.inject({
        method: 'PUT',
        url: `/api/applications/${application.id}`,
        headers: owner.headers,
        payload: applicationSettings,
      });
      expect(updated.statusCode, updated.body).toBe(200);
    }
    const { user } = await createPlanHolderViaApi(first.app, owner, application.id, {
      plan: { name: 'Team', floating: true, seats: 2, leaseMinutes: 15, ...planSettings },
      user: { password: PASSWORD },
    });
    return { application, user };
  };
  const liveLeases = async (user: AppUser) =>
    (
      await first.database.db
        .select({ expiresAt: seatLeases.expiresAt })
        .from(seatLeases)
        .where(eq(seatLeases.appUserId, user.id))
    ).filter((lease) => lease.expiresAt > clock.now());

  it('takes N seats for N+1 logins at once, one session each, and frees a seat at session end', async () => {
    // A session limit of one would end the older session: floating seats are exempt.
    const { application, user } = await setUp({ maxSessionsPerUser: 1 });
    const answers = await Promise.all(
      ['PC-A', 'PC-B', 'PC-C'].map((hwid, index) =>
        login(index % 2 === 0 ? first : second, application, user, hwid),
      ),
    );
    const taken = answers.filter((answer) => answer.code === 'OK');
    const refused = answers.filter((answer) => answer.code !== 'OK');
    expect(taken).toHaveLength(2);
    expect(refused).toEqual([
      expect.objectContaining({
        success: false,
        code: 'NO_SEAT_AVAILABLE',
        next_free_at: new Date(start.getTime() + 15 * MINUTE_MS).toISOString(),
      }),
    ]);
    const denied = await first.database.db
      .select({ metadata: activityLogs.metadata })
      .from(activityLogs)
      .where(and(eq(activityLogs.appUserId, user.id), eq(activityLogs.event, 'seat_denied')));
    expect(denied).toHaveLength(1);

    // Each login's token starts its own session, on either instance; both stay open.
    for (const [index, answer] of taken.entries()) {
      expect(
        await track(index === 0 ? first : second, application, {
          action: 'start',
          user_id: user.id,
          session_token: answer.session_token,
        }),
      ).toMatchObject({ code: 'OK' });
    }
    for (const answer of taken) {
      expect(
        await track(second, application, {
          action: 'heartbeat',
          session_token: answer.session_token,
        }),
      ).toMatchObject({ code: 'OK' });
    }
    expect(await liveLeases(user)).toHaveLength(2);

    // Ending a session frees its seat at once: the third computer gets in.
    expect(
      await track(first, application, { action: 'end', session_token: taken[0]!.session_token }),
    ).toMatchObject({ code: 'OK' });
    expect(await liveLeases(user)).toHaveLength(1);
    expect(await login(second, application, user, 'PC-C')).toMatchObject({ code: 'OK' });
  });

  it('keeps a seat while heartbeats come, and frees it when they stop', async () => {
    const { application, user } = await setUp();
    const a = await login(first, application, user, 'PC-A');
    const b = await login(first, application, user, 'PC-B');
    for (const answer of [a, b]) {
      expect(
        await track(first, application, {
          action: 'start',
          user_id: user.id,
          session_token: answer.session_token,
        }),
      ).toMatchObject({ code: 'OK' });
    }
    // Ten minutes on, only A's program is still running: its heartbeat renews its lease.
    clock.set(new Date(start.getTime() + 10 * MINUTE_MS));
    expect(
      await track(second, application, { action: 'heartbeat', session_token: a.session_token }),
    ).toMatchObject({ code: 'OK' });
    await second.app.activity.flush();
    // Half a minute later another heartbeat: the lease renewed a moment ago is left as it is
    // (renewals come at most once a minute), so it still ends 25 minutes in.
    clock.set(new Date(start.getTime() + 10.5 * MINUTE_MS));
    expect(
      await track(first, application, { action: 'heartbeat', session_token: a.session_token }),
    ).toMatchObject({ code: 'OK' });
    await first.app.activity.flush();
    // Twenty minutes on, B's lease has lapsed (its computer went away) and A's has not.
    clock.set(new Date(start.getTime() + 20 * MINUTE_MS));
    expect(await liveLeases(user)).toHaveLength(1);
    expect(await login(first, application, user, 'PC-C')).toMatchObject({ code: 'OK' });
    expect(await login(first, application, user, 'PC-D')).toMatchObject({
      code: 'NO_SEAT_AVAILABLE',
      next_free_at: new Date(start.getTime() + 25 * MINUTE_MS).toISOString(),
    });
  });

  it('borrows a seat for days with an offline licence, keeps it past the session, and returns it', async () => {
    const { application, user } = await setUp({}, { seats: 1, maxBorrowDays: 7 });
    const a = await login(first, application, user, 'LAPTOP');
    expect(
      await track(first, application, {
        action: 'start',
        user_id: user.id,
        session_token: a.session_token,
      }),
    ).toMatchObject({ code: 'OK' });
    const borrow = (body: Record<string, unknown>) =>
      callClientApi(second.app, 'session/borrow', { apiKey: application.apiKey, body }).then(
        (response) => response.json() as { code: string; license?: string; valid_until?: string },
      );
    expect(await borrow({ session_token: a.session_token, days: 8 })).toMatchObject({
      code: 'BORROW_NOT_ALLOWED',
    });
    const borrowed = await borrow({ session_token: a.session_token, days: 3 });
    expect(borrowed).toMatchObject({
      code: 'OK',
      license: expect.stringMatching(/^LK1\./),
      valid_until: new Date(start.getTime() + 3 * 86_400_000).toISOString(),
    });

    // The laptop goes offline: its session ends, its seat stays borrowed.
    expect(
      await track(first, application, { action: 'end', session_token: a.session_token }),
    ).toMatchObject({ code: 'OK' });
    expect(await login(second, application, user, 'DESKTOP')).toMatchObject({
      code: 'NO_SEAT_AVAILABLE',
      next_free_at: borrowed.valid_until,
    });
    // The owner sees it, borrowed.
    const seats = await first.app.inject({
      url: `/api/applications/${application.id}/seats`,
      headers: owner.headers,
    });
    expect(seatLeaseListSchema.parse(seats.json())).toEqual([
      expect.objectContaining({
        userId: user.id,
        username: user.username,
        hwid: 'LAPTOP',
        borrowedUntil: borrowed.valid_until,
      }),
    ]);

    // Back early: the seat is free for the desktop.
    const given = (token: string | undefined) =>
      callClientApi(first.app, 'session/return', {
        apiKey: application.apiKey,
        body: { session_token: token },
      }).then((response) => response.json() as { code: string });
    expect(await given(a.session_token)).toMatchObject({ code: 'OK' });
    expect(await given(a.session_token)).toMatchObject({ code: 'SESSION_INVALID' });
    expect(await login(second, application, user, 'DESKTOP')).toMatchObject({ code: 'OK' });
  });

  it('pages the seats in use and searches them by holder or HWID', async () => {
    const { application, user } = await setUp({}, { seats: 3 });
    for (const hwid of ['PC-A', 'PC-B', 'LAPTOP-C']) {
      clock.advance(1000);
      expect(await login(first, application, user, hwid)).toMatchObject({ code: 'OK' });
    }
    const list = async (query: string) => {
      const response = await first.app.inject({
        url: `/api/applications/${application.id}/seats?${query}`,
        headers: owner.headers,
      });
      expect(response.statusCode, response.body).toBe(200);
      return {
        hwids: seatLeaseListSchema.parse(response.json()).map((seat) => seat.hwid),
        total: response.headers['x-total-count'],
      };
    };
    expect(await list('pageSize=2')).toEqual({ hwids: ['PC-A', 'PC-B'], total: '3' });
    expect(await list('pageSize=2&page=2')).toEqual({ hwids: ['LAPTOP-C'], total: '3' });
    expect(await list('search=laptop')).toEqual({ hwids: ['LAPTOP-C'], total: '1' });
    expect(await list(`search=${user.username.slice(2, 8).toUpperCase()}`)).toEqual({
      hwids: ['PC-A', 'PC-B', 'LAPTOP-C'],
      total: '3',
    });
    expect(await list('search=nobody')).toEqual({ hwids: [], total: '0' });
    const refused = await first.app.inject({
      url: `/api/applications/${application.id}/seats?pageSize=500`,
      headers: owner.headers,
    });
    expect(refused.statusCode).toBe(400);
  });

  it('lets the owner free a seat in use, ending its session', async () => {
    const { application, user } = await setUp({}, { seats: 1 });
    const a = await login(first, application, user, 'PC-A');
    expect(
      await track(first, application, {
        action: 'start',
        user_id: user.id,
        session_token: a.session_token,
      }),
    ).toMatchObject({ code: 'OK' });
    const listed = seatLeaseListSchema.parse(
      (
        await first.app.inject({
          url: `/api/applications/${application.id}/seats`,
          headers: owner.headers,
        })
      ).json(),
    );
    expect(listed).toHaveLength(1);
    const freed = await first.app.inject({
      method: 'DELETE',
      url: `/api/applications/${application.id}/seats/${listed[0]!.id}`,
      headers: owner.headers,
    });
    expect(freed.statusCode, freed.body).toBe(200);
    expect(
      await track(second, application, { action: 'heartbeat', session_token: a.session_token }),
    ).toMatchObject({ code: 'SESSION_INVALID' });
    expect(await login(second, application, user, 'PC-B')).toMatchObject({ code: 'OK' });
    const again = await first.app.inject({
      method: 'DELETE',
      url: `/api/applications/${application.id}/seats/${listed[0]!.id}`,
      headers: owner.headers,
    });
    expect(again.statusCode).toBe(404);
  });

  it('under HWID lock takes one seat for a login that binds its machine, and gives back a refused one', async () => {
    const { application, user } = await setUp({ hwidLockEnabled: true, maxDevices: 1 });
    // The first login binds PC-A: the seat is leased once, across the bind.
    expect(await login(first, application, user, 'PC-A')).toMatchObject({ code: 'OK' });
    expect(await liveLeases(user)).toHaveLength(1);
    // PC-B is beyond the one device: refused, and the seat it leased is given back.
    expect(await login(second, application, user, 'PC-B')).toMatchObject({
      code: 'HWID_MISMATCH',
    });
    expect(await liveLeases(user)).toHaveLength(1);
    // PC-A again: a second session, a second seat; then both seats are in use.
    expect(await login(second, application, user, 'PC-A')).toMatchObject({ code: 'OK' });
    expect(await liveLeases(user)).toHaveLength(2);
    expect(await login(first, application, user, 'PC-A')).toMatchObject({
      code: 'NO_SEAT_AVAILABLE',
    });
    const events = await first.database.db
      .select({ event: activityLogs.event })
      .from(activityLogs)
      .where(eq(activityLogs.appUserId, user.id));
    expect(events.filter(({ event }) => event === 'user_login')).toHaveLength(2);
    expect(events.filter(({ event }) => event === 'seat_denied')).toHaveLength(1);
  });

  it('takes no seat for a plan that is not floating', async () => {
    clock.set(start);
    const application = await createApplicationViaApi(first.app, owner);
    const { user } = await createPlanHolderViaApi(first.app, owner, application.id, {
      plan: { name: 'Solo' },
      user: { password: PASSWORD },
    });
    for (const hwid of ['PC-1', 'PC-2', 'PC-3']) {
      expect(await login(first, application, user, hwid)).toMatchObject({ code: 'OK' });
    }
    expect(await liveLeases(user)).toEqual([]);
  });
});
