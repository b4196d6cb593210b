import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  activityEventsMatching,
  activityLogListSchema,
  activityLogStatsSchema,
  MAX_PAGE_SIZE,
  pagingHeaders,
  SEARCH_COUNT_LIMIT,
} from '@latchkey/contracts';
import { rowsOf } from '../../db/rows-of.ts';
import { activityLogs, appUsers } from '../../db/schema/index.ts';
import { createManualClock } from '../../lib/clock.ts';
import { containsPattern } from '../../lib/contains-pattern.ts';
import {
  callClientApi,
  insertActivityLog,
  insertAppUserWithPassword,
  insertClientApplication,
} from '../../../test/factories.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';
import { signInOwner, type SignedInOwner } from '../../../test/test-app.ts';

describe('GET /api/activity-logs', () => {
  const clock = createManualClock(new Date('2026-04-01T12:00:00Z'));

  const testApp = startTestAppForSuite({ clock });
  const owner = signInOwnerForSuite(testApp);
  const otherOwner = signInOwnerForSuite(testApp);

  const list = async (who: SignedInOwner, query = '') => {
    const response = await testApp.app.inject({
      url: `/api/activity-logs${query}`,
      headers: who.headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    return activityLogListSchema.parse(response.json());
  };

  it('shows what the client API recorded, newest first, with every field of the event', async () => {
    const application = await insertClientApplication(testApp, owner.accountId, {
      name: 'Logged App',
    });
    const user = await insertAppUserWithPassword(testApp.database.db, application.id, 'pw');
    const login = (password: string, hwid?: string) =>
      callClientApi(testApp.app, 'login', {
        apiKey: application.apiKey,
        body: { username: user.username, password, version: '1.0.0', hwid },
        remoteAddress: '127.0.0.3',
      });
    await login('wrong');
    clock.advance(1000);
    await login('pw', 'PC-7');
    await testApp.app.activity.flush();

    const logs = await list(owner, `?applicationId=${application.id}`);
    expect(logs).toEqual([
      {
        id: expect.any(Number),
        event: 'user_login',
        success: true,
        applicationId: application.id,
        application: { name: 'Logged App' },
        appUser: { username: user.username },
        username: user.username,
        ipAddress: '127.0.0.3',
        errorMessage: null,
        metadata: { code: 'OK', hwid: 'PC-7', version: '1.0.0' },
        createdAt: '2026-04-01T12:00:01.000Z',
      },
      {
        id: expect.any(Number),
        event: 'login_failed',
        success: false,
        applicationId: application.id,
        application: { name: 'Logged App' },
        appUser: { username: user.username },
        username: user.username,
        ipAddress: '127.0.0.3',
        errorMessage: 'Invalid username or password',
        metadata: { code: 'INVALID_CREDENTIALS', version: '1.0.0' },
        createdAt: '2026-04-01T12:00:00.000Z',
      },
    ]);
    expect(logs[0]!.id).toBeGreaterThan(logs[1]!.id);

    // A deleted user's logs remain, with the username as sent and no appUser.
    await testApp.database.db.delete(appUsers).where(eq(appUsers.id, user.id));
    const afterDelete = await list(owner, `?applicationId=${application.id}`);
    expect(afterDelete.map((log) => [log.appUser, log.username])).toEqual([
      [null, user.username],
      [null, user.username],
    ]);
  });

  it("lists every application's logs of the owner, and only theirs", async () => {
    const fresh = await signInOwner(testApp.app);
    const db = testApp.database.db;
    const first = await insertClientApplication(testApp, fresh.accountId, { name: 'First' });
    const second = await insertClientApplication(testApp, fresh.accountId, { name: 'Second' });
    const foreign = await insertClientApplication(testApp, otherOwner.accountId);
    const at = (seconds: number) => new Date(Date.UTC(2026, 3, 2, 0, 0, seconds));
    await insertActivityLog(db, {
      applicationId: first.id,
      event: 'user_login',
      success: true,
      createdAt: at(1),
    });
    await insertActivityLog(db, {
      applicationId: second.id,
      event: 'login_failed',
      success: false,
      createdAt: at(3),
    });
    await insertActivityLog(db, {
      applicationId: first.id,
      event: 'user_register',
      success: true,
      createdAt: at(2),
    });
    await insertActivityLog(db, {
      applicationId: foreign.id,
      event: 'user_login',
      success: true,
      createdAt: at(4),
    });

    const all = await list(fresh);
    expect(all.map((log) => [log.application.name, log.event])).toEqual([
      ['Second', 'login_failed'],
      ['First', 'user_register'],
      ['First', 'user_login'],
    ]);
    expect(all.every((log) => log.metadata && typeof log.metadata === 'object')).toBe(true);
    expect((await list(fresh, `?applicationId=${first.id}`)).map((log) => log.event)).toEqual([
      'user_register',
      'user_login',
    ]);
    expect(await list(fresh, '?applicationId=')).toHaveLength(3);

    // Another owner's application is a 404, exactly like one that does not exist.
    for (const id of [foreign.id, 2_000_000_000]) {
      const response = await testApp.app.inject({
        url: `/api/activity-logs?applicationId=${id}`,
        headers: fresh.headers,
      });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: 'Application not found', code: 'NOT_FOUND' });
    }
    const malformed = await testApp.app.inject({
      url: '/api/activity-logs?applicationId=abc',
      headers: fresh.headers,
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({
      message: 'applicationId: Invalid application id',
      code: 'BAD_REQUEST',
      fields: [{ field: 'applicationId', message: 'Invalid application id' }],
    });
  });

  /** One page as the console reads it: the rows and the paging headers. */
  const listPage = async (who: SignedInOwner, query: string) => {
    const response = await testApp.app.inject({
      url: `/api/activity-logs?${query}`,
      headers: who.headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    return {
      rows: activityLogListSchema.parse(response.json()),
      total: Number(response.headers[pagingHeaders.totalCount]),
      page: Number(response.headers[pagingHeaders.page]),
      pageSize: Number(response.headers[pagingHeaders.pageSize]),
      isTotalCapped: response.headers[pagingHeaders.totalCountCapped] === 'true',
    };
  };
  const stats = async (who: SignedInOwner, query = '') => {
    const response = await testApp.app.inject({
      url: `/api/activity-logs/stats?${query}`,
      headers: who.headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    return activityLogStatsSchema.parse(response.json());
  };

  /** 7 logs over two applications, one second apart: `log-0` oldest, `log-6` newest. */
  async function seedPagedOwner() {
    const fresh = await signInOwner(testApp.app);
    const first = await insertClientApplication(testApp, fresh.accountId, { name: 'Paged One' });
    const second = await insertClientApplication(testApp, fresh.accountId, { name: 'Paged Two' });
    const base = Date.UTC(2026, 4, 1);
    await testApp.database.db.insert(activityLogs).values(
      Array.from({ length: 7 }, (_, index) => ({
        // Interleaved, so each page mixes both applications' rows.
        applicationId: index % 2 === 0 ? first.id : second.id,
        event: index % 3 === 0 ? 'login_failed' : 'user_login',
        success: index % 3 !== 0,
        username: `log-${index}`,
        ipAddress: index < 4 ? '10.0.0.1' : `10.0.1.${index}`,
        createdAt: new Date(base + index * 1000),
      })),
    );
    return { fresh, first, second };
  }

  it('pages newest first across applications, with the total of every page', async () => {
    const { fresh } = await seedPagedOwner();
    const names = (rows: { username: string | null }[]) => rows.map((row) => row.username);

    const first = await listPage(fresh, 'pageSize=3');
    expect(names(first.rows)).toEqual(['log-6', 'log-5', 'log-4']);
    expect([first.total, first.page, first.pageSize]).toEqual([7, 1, 3]);
    expect(names((await listPage(fresh, 'page=2&pageSize=3')).rows)).toEqual([
      'log-3',
      'log-2',
      'log-1',
    ]);
    const last = await listPage(fresh, 'page=3&pageSize=3');
    expect(names(last.rows)).toEqual(['log-0']);
    expect(last.total).toBe(7);
    // Past the end: no rows, the total still right.
    const beyond = await listPage(fresh, 'page=4&pageSize=3');
    expect(beyond.rows).toEqual([]);
    expect(beyond.total).toBe(7);
    // Exactly one full page.
    const whole = await listPage(fresh, 'pageSize=7');
    expect(whole.rows).toHaveLength(7);
    expect(whole.total).toBe(7);
    // Without paging parameters: the first page of the default size.
    const byDefault = await listPage(fresh, '');
    expect(byDefault.rows).toHaveLength(7);
    expect([byDefault.page, byDefault.pageSize]).toEqual([1, 50]);

    for (const bad of ['page=0', 'pageSize=0', `pageSize=${MAX_PAGE_SIZE + 1}`, 'page=x']) {
      const response = await testApp.app.inject({
        url: `/api/activity-logs?${bad}`,
        headers: fresh.headers,
      });
      expect(response.statusCode, bad).toBe(400);
    }
  });

  it('filters by application and event, and searches; totals and stats follow the filters', async () => {
    const { fresh, first, second } = await seedPagedOwner();
    const names = (rows: { username: string | null }[]) => rows.map((row) => row.username);

    // Application One holds log-0, 2, 4, 6; its second page of two is log-2, log-0.
    const ofFirst = await listPage(fresh, `applicationId=${first.id}&page=2&pageSize=2`);
    expect(names(ofFirst.rows)).toEqual(['log-2', 'log-0']);
    expect(ofFirst.total).toBe(4);

    // login_failed: log-0, log-3, log-6 (over both applications).
    const failed = await listPage(fresh, 'event=login_failed&pageSize=2');
    expect(names(failed.rows)).toEqual(['log-6', 'log-3']);
    expect(failed.total).toBe(3);
    expect(names((await listPage(fresh, 'event=login_failed&page=2&pageSize=2')).rows)).toEqual([
      'log-0',
    ]);
    const failedOfSecond = await listPage(fresh, `event=login_failed&applicationId=${second.id}`);
    expect(names(failedOfSecond.rows)).toEqual(['log-3']);
    expect(failedOfSecond.total).toBe(1);

    // Search: username, IP address, event name or label, ignoring case.
    const search = async (text: string) =>
      listPage(fresh, new URLSearchParams({ search: text }).toString());
    expect(names((await search('LOG-5')).rows)).toEqual(['log-5']);
    expect((await search('10.0.1.')).total).toBe(3);
    expect((await search('login failed')).total).toBe(3);
    expect((await search('LOGIN_FAILED')).total).toBe(3);
    expect((await search('user login')).total).toBe(4);
    expect((await search('nobody')).total).toBe(0);
    // % and _ are text, not wildcards.
    expect((await search('log%')).total).toBe(0);
    const searchedPage = await listPage(fresh, 'search=10.0.1.&page=2&pageSize=2');
    expect(names(searchedPage.rows)).toEqual(['log-4']);
    expect(searchedPage.total).toBe(3);
    // Past the last page: no rows, and still the whole count.
    const pastTheEnd = await listPage(fresh, 'search=10.0.1.&page=5&pageSize=2');
    expect([pastTheEnd.rows, pastTheEnd.total, pastTheEnd.isTotalCapped]).toEqual([[], 3, false]);

    // The cards: every matching log, not one page.
    expect(await stats(fresh)).toEqual({
      totalEvents: 7,
      successful: 4,
      failed: 3,
      uniqueIps: 4,
      isCapped: false,
    });
    expect(await stats(fresh, `applicationId=${first.id}`)).toEqual({
      totalEvents: 4,
      successful: 2,
      failed: 2,
      uniqueIps: 3,
      isCapped: false,
    });
    // login_failed: log-0 and log-3 from 10.0.0.1, log-6 from 10.0.1.6.
    expect(await stats(fresh, 'event=login_failed')).toEqual({
      totalEvents: 3,
      successful: 0,
      failed: 3,
      uniqueIps: 2,
      isCapped: false,
    });
    expect(await stats(fresh, `event=user_login&applicationId=${second.id}`)).toEqual({
      totalEvents: 2,
      successful: 2,
      failed: 0,
      uniqueIps: 2,
      isCapped: false,
    });
    expect(await stats(fresh, 'event=login_failed&search=10.0.0')).toEqual({
      totalEvents: 2,
      successful: 0,
      failed: 2,
      uniqueIps: 1,
      isCapped: false,
    });
    expect(await stats(fresh, 'search=nobody')).toEqual({
      totalEvents: 0,
      successful: 0,
      failed: 0,
      uniqueIps: 0,
      isCapped: false,
    });

    const badEvent = await testApp.app.inject({
      url: '/api/activity-logs/stats?event=user_logout',
      headers: fresh.headers,
    });
    expect(badEvent.statusCode).toBe(400);
    expect(badEvent.json().code).toBe('BAD_REQUEST');
  });

  it("searches the end user's current name too, and never shows another owner's logs", async () => {
    const { fresh } = await seedPagedOwner();
    const application = await insertClientApplication(testApp, fresh.accountId);
    const user = await insertAppUserWithPassword(testApp.database.db, application.id, 'pw');
    await insertActivityLog(testApp.database.db, {
      applicationId: application.id,
      appUserId: user.id,
      username: 'as-sent',
      event: 'user_login',
      success: true,
    });
    const byCurrentName = await listPage(fresh, `search=${encodeURIComponent(user.username)}`);
    expect(byCurrentName.rows.map((row) => row.username)).toEqual(['as-sent']);
    expect(byCurrentName.total).toBe(1);

    // The other owner has logs with the same names, events and addresses: none leak either way.
    const { fresh: neighbour } = await seedPagedOwner();
    const expectedTotals: [query: string, mine: number, theirs: number][] = [
      ['', 8, 7],
      ['search=log', 8, 7], // every event name holds "login"
      ['event=login_failed', 3, 3],
      ['search=10.0', 7, 7], // the log without an address does not match
      ['pageSize=200', 8, 7],
    ];
    for (const [query, mineTotal, theirTotal] of expectedTotals) {
      const mine = await listPage(fresh, query);
      const theirs = await listPage(neighbour, query);
      expect([mine.total, theirs.total], query).toEqual([mineTotal, theirTotal]);
      expect(mine.rows, query).toHaveLength(mineTotal);
      const theirIds = new Set(theirs.rows.map((row) => row.id));
      expect(
        mine.rows.some((row) => theirIds.has(row.id)),
        query,
      ).toBe(false);
    }
    expect((await stats(neighbour)).totalEvents).toBe(7);
    expect((await stats(fresh)).totalEvents).toBe(8);
  });

  it('finds through the names the log holds exactly the logs whose text matches', async () => {
    const fresh = await signInOwner(testApp.app);
    const first = await insertClientApplication(testApp, fresh.accountId);
    const second = await insertClientApplication(testApp, fresh.accountId);
    const renamed = await insertAppUserWithPassword(testApp.database.db, first.id, 'pw');
    const kept = await insertAppUserWithPassword(testApp.database.db, second.id, 'pw');
    // Names in mixed case, shared by both applications, %, _ and nulls; a user since renamed,
    // and one whose logs carry another name than the user's.
    const names = ['Mallory', 'mallory_2', 'MAL%LORY', 'carol', 'Carol.West', null];
    await testApp.database.db.insert(activityLogs).values(
      Array.from({ length: 24 }, (_, index) => ({
        applicationId: index % 3 === 0 ? second.id : first.id,
        appUserId:
          index % 3 === 0
            ? index % 2 === 0
              ? kept.id
              : null
            : index % 5 === 0
              ? renamed.id
              : null,
        username: names[index % names.length],
        event: ['user_login', 'login_failed', 'license_redeemed'][index % 3]!,
        success: index % 2 === 0,
        ipAddress: index % 4 === 0 ? null : `203.0.113.${index % 6}`,
        createdAt: new Date(Date.UTC(2026, 5, 1) + index * 60_000),
      })),
    );
    await testApp.database.db
      .update(appUsers)
      .set({ username: 'Renamed-Now' })
      .where(eq(appUsers.id, renamed.id));

    // The truth: the text of every log of the owner, matched row by row.
    const matchingByText = async (search: string, applicationId?: number) => {
      const pattern = containsPattern(search);
      const events = activityEventsMatching(search);
      const rows = rowsOf<{ id: number }>(
        await testApp.database.db.execute(sql`
          select l.id::int from activity_logs l
          join applications a on a.id = l.application_id
          left join app_users u on u.id = l.app_user_id
          where a.owner_account_id = ${fresh.accountId}
            and (${applicationId ?? null}::int is null or l.application_id = ${applicationId ?? null}::int)
            and (l.username ilike ${pattern} or l.ip_address ilike ${pattern}
                 or u.username ilike ${pattern}
                 or l.event = any(${sql.param(events)}::text[]))
          order by l.created_at desc, l.id desc`),
      );
      return rows.map((row) => row.id);
    };
    const searches = [
      'mallory',
      'MAL%',
      'y_2',
      'carol',
      '.west',
      'renamed-now',
      kept.username,
      '203.0.113.',
      '113.5',
      'login failed',
      'license',
      'nobody',
      '_',
    ];
    for (const search of searches) {
      for (const applicationId of [undefined, first.id]) {
        const query = new URLSearchParams({ search, pageSize: '200' });
        if (applicationId !== undefined) query.set('applicationId', String(applicationId));
        const page = await listPage(fresh, query.toString());
        const expected = await matchingByText(search, applicationId);
        expect(
          page.rows.map((row) => row.id),
          `${search} in ${applicationId}`,
        ).toEqual(expected);
        expect(page.total, search).toBe(expected.length);
        expect((await stats(fresh, query.toString())).totalEvents, search).toBe(expected.length);
      }
    }
  });

  it(`counts a search's matches up to ${SEARCH_COUNT_LIMIT}, then says the total is a floor`, async () => {
    const fresh = await signInOwner(testApp.app);
    const application = await insertClientApplication(testApp, fresh.accountId);
    // One more match than the limit, newest last, and two logs the search does not match.
    await testApp.database.db.execute(sql`
      insert into activity_logs (application_id, username, event, success, ip_address, created_at)
      select ${application.id}::int, 'bulk-' || i, 'user_login', i % 2 = 0, '198.51.100.' || (i % 7),
             timestamptz '2026-05-01T00:00:00Z' + i * interval '1 second'
      from generate_series(1, ${SEARCH_COUNT_LIMIT + 1}::int) as i
      union all
      select ${application.id}::int, 'other-' || i, 'login_failed', false, null::text,
             timestamptz '2026-04-01T00:00:00Z' + i * interval '1 second'
      from generate_series(1, 2) as i`);

    const broad = await listPage(fresh, 'search=bulk-&pageSize=3');
    expect([broad.total, broad.isTotalCapped]).toEqual([SEARCH_COUNT_LIMIT, true]);
    expect(broad.rows.map((row) => row.username)).toEqual([
      `bulk-${SEARCH_COUNT_LIMIT + 1}`,
      `bulk-${SEARCH_COUNT_LIMIT}`,
      `bulk-${SEARCH_COUNT_LIMIT - 1}`,
    ]);
    const deeper = await listPage(fresh, 'search=bulk-&page=1000&pageSize=10');
    expect(deeper.rows.map((row) => row.username)).toEqual(
      Array.from({ length: 10 }, (_, index) => `bulk-${SEARCH_COUNT_LIMIT + 1 - 9990 - index}`),
    );
    expect(await stats(fresh, 'search=bulk-')).toEqual({
      totalEvents: SEARCH_COUNT_LIMIT,
      successful: null,
      failed: null,
      uniqueIps: null,
      isCapped: true,
    });

    // More names match than the limit, but not with an event filter: counted, not capped.
    const broadOfEvent = await listPage(fresh, 'search=bulk-&event=login_failed');
    expect([broadOfEvent.total, broadOfEvent.isTotalCapped]).toEqual([0, false]);
    expect(await stats(fresh, 'search=-&event=login_failed')).toEqual({
      totalEvents: 2,
      successful: 0,
      failed: 2,
      uniqueIps: 0,
      isCapped: false,
    });

    // A search with fewer matches, and no search at all, are counted exactly.
    const narrow = await listPage(fresh, 'search=bulk-100');
    expect([narrow.total, narrow.isTotalCapped]).toEqual([13, false]); // 100, 1000-1009, 10000, 10001
    expect(await stats(fresh, 'search=other')).toEqual({
      totalEvents: 2,
      successful: 0,
      failed: 2,
      uniqueIps: 0,
      isCapped: false,
    });
    const everything = await listPage(fresh, 'pageSize=1');
    expect([everything.total, everything.isTotalCapped]).toEqual([SEARCH_COUNT_LIMIT + 3, false]);
    expect(await stats(fresh)).toEqual({
      totalEvents: SEARCH_COUNT_LIMIT + 3,
      successful: (SEARCH_COUNT_LIMIT + 1 - 1) / 2,
      failed: SEARCH_COUNT_LIMIT + 3 - (SEARCH_COUNT_LIMIT + 1 - 1) / 2,
      uniqueIps: 7,
      isCapped: false,
    });
  });
});
