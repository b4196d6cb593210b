import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { activityLogs, activityLogTerms } from '../../db/schema/index.ts';
import { rowsOf } from '../../db/rows-of.ts';
import { foldCounterDeltas } from './fold-counter-deltas.ts';
import { expectActivityLogTermsToMatchRows } from '../../../test/activity-log-terms-oracle.ts';
import { insertApplication } from '../../../test/factories.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * activity_log_terms holds each username and address of each application's log once, kept by
 * the counter fold from the deltas the rows' statement writes; a term's day is that of its
 * newest row.
 */
describe('the activity log search terms', () => {
  const testApp = startTestAppForSuite();
  const owner = signInOwnerForSuite(testApp);
  const db = () => testApp.database.db;
  const day = (n: number) => new Date(Date.UTC(2026, 10, 1) + n * DAY_MS + 5 * 3_600_000);
  const termsOf = async (applicationId: number) => {
    await foldCounterDeltas(db());
    return rowsOf<{ field: string; value: string; day: string }>(
      await db().execute(sql`
        select field, value, to_char(last_seen_day at time zone 'UTC', 'YYYY-MM-DD') as day
        from activity_log_terms where application_id = ${applicationId} order by 1, 2`),
    );
  };

  it('are folded from the rows, once per application, without nulls', async () => {
    const application = await insertApplication(db(), owner.accountId);
    const other = await insertApplication(db(), owner.accountId);
    // One statement of many rows (as the recorder writes), names repeated, in two applications.
    await db()
      .insert(activityLogs)
      .values([
        {
          applicationId: application.id,
          username: 'Alice',
          ipAddress: '192.0.2.1',
          event: 'user_login',
          success: true,
          createdAt: day(0),
        },
        {
          applicationId: application.id,
          username: 'Alice',
          ipAddress: '192.0.2.2',
          event: 'user_login',
          success: true,
          createdAt: day(1),
        },
        {
          applicationId: application.id,
          username: null,
          ipAddress: null,
          event: 'license_redeemed',
          success: false,
          createdAt: day(1),
        },
        {
          applicationId: other.id,
          username: 'Alice',
          ipAddress: '192.0.2.1',
          event: 'login_failed',
          success: false,
          createdAt: day(0),
        },
      ]);
    expect(await termsOf(application.id)).toEqual([
      { field: 'ip_address', value: '192.0.2.1', day: '2026-11-01' },
      { field: 'ip_address', value: '192.0.2.2', day: '2026-11-02' },
      { field: 'username', value: 'Alice', day: '2026-11-02' },
    ]);
    expect(await termsOf(other.id)).toEqual([
      { field: 'ip_address', value: '192.0.2.1', day: '2026-11-01' },
      { field: 'username', value: 'Alice', day: '2026-11-01' },
    ]);
    await expectActivityLogTermsToMatchRows(db());
  });

  it("move a term's day forward with a newer row, never back with an older one", async () => {
    const application = await insertApplication(db(), owner.accountId);
    const log = (createdAt: Date) =>
      db().insert(activityLogs).values({
        applicationId: application.id,
        username: 'bob',
        event: 'user_login',
        success: true,
        createdAt,
      });
    await log(day(3));
    await log(day(5));
    expect((await termsOf(application.id))[0]!.day).toBe('2026-11-06');
    await log(day(1)); // an import of older logs
    expect((await termsOf(application.id))[0]!.day).toBe('2026-11-06');
    await log(day(5)); // the same day again: the term stays as it was
    expect(await termsOf(application.id)).toEqual([
      { field: 'username', value: 'bob', day: '2026-11-06' },
    ]);
    await expectActivityLogTermsToMatchRows(db());
  });

  it('go with their application', async () => {
    const application = await insertApplication(db(), owner.accountId);
    await db().insert(activityLogs).values({
      applicationId: application.id,
      username: 'gone',
      event: 'user_login',
      success: true,
    });
    expect(await termsOf(application.id)).toHaveLength(1);
    await db().execute(sql`delete from applications where id = ${application.id}`);
    const [left] = rowsOf<{ count: number }>(
      await db().execute(
        sql`select count(*)::int as count from ${activityLogTerms} where application_id = ${application.id}`,
      ),
    );
    expect(left!.count).toBe(0);
  });

  it("are found past the retention by their day's index, not by a scan of them all", async () => {
    const application = await insertApplication(db(), owner.accountId);
    // Three thousand names, all seen on one day: none is past a cutoff before it.
    await db()
      .insert(activityLogs)
      .values(
        Array.from({ length: 3000 }, (_, index) => ({
          applicationId: application.id,
          username: `named-${index}`,
          event: 'user_login',
          success: true,
          createdAt: day(3),
        })),
      );
    await foldCounterDeltas(db());
    await db().execute(sql`analyze activity_log_terms`);
    // The range the retention sweep's prune (retention/stale-activity-log-terms.ts) deletes.
    const plan = rowsOf<{ 'QUERY PLAN': string }>(
      await db().execute(sql`
        explain select 1 from activity_log_terms
        where application_id = ${application.id}
          and last_seen_day < ${day(1).toISOString()}::timestamptz`),
    )
      .map((row) => row['QUERY PLAN'])
      .join('\n');
    expect(plan).toContain('activity_log_terms_application_day_idx');
    expect(plan).not.toContain('Seq Scan');
  });

  // Concurrent statements need connections of their own: PostgreSQL only.
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'keep the newest day when many transactions write the same terms at once',
    async () => {
      const application = await insertApplication(db(), owner.accountId);
      const names = Array.from({ length: 8 }, (_, index) => `shared-${index}`);
      // Every term exists, a day old: each statement below moves all of them forward.
      await db()
        .insert(activityLogs)
        .values(
          names.map((username) => ({
            applicationId: application.id,
            username,
            ipAddress: '198.51.100.1',
            event: 'user_login',
            success: true,
            createdAt: day(0),
          })),
        );
      // Sixteen transactions, each writing every name (in its own order) on its own day, and
      // each staying open a while, with folds running meanwhile.
      await Promise.all(
        Array.from({ length: 16 }, (_, index) =>
          db().transaction(async (tx) => {
            const order = index % 2 === 0 ? names : [...names].reverse();
            await tx.insert(activityLogs).values(
              order.map((username) => ({
                applicationId: application.id,
                username,
                ipAddress: `198.51.100.${index}`,
                event: 'user_login',
                success: true,
                createdAt: day(1 + (index % 4)),
              })),
            );
            await tx.execute(sql`select pg_sleep(0.02)`);
          }),
        ).concat(Array.from({ length: 4 }, () => foldCounterDeltas(db()).then(() => undefined))),
      );
      const terms = await termsOf(application.id);
      expect(terms.filter((term) => term.field === 'username')).toEqual(
        names.map((value) => ({ field: 'username', value, day: '2026-11-05' })),
      );
      await expectActivityLogTermsToMatchRows(db());
    },
  );
});
