import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { activityLogs } from '../../db/schema/index.ts';
import { rowsOf } from '../../db/rows-of.ts';
import { foldCounterDeltas } from '../activity/index.ts';
import { createManualClock } from '../../lib/clock.ts';
import { expectActivityCountersToMatchRows } from '../../../test/activity-counters-oracle.ts';
import { expectActivityLogTermsToMatchRows } from '../../../test/activity-log-terms-oracle.ts';
import { insertApplication } from '../../../test/factories.ts';
import { signInOwnerForSuite, startTestAppForSuite } from '../../../test/suite-test-app.ts';
import {
  activityLogPartitionDays,
  createActivityLogPartitions,
} from './activity-log-partitions.ts';
import { sweepExpiredRows } from './sweep-expired-rows.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The activity log is partitioned by ranges of UTC days: the sweep keeps a week ahead made and
 * drops the ranges past retention whole, and the counters over the log follow both.
 */
describe('the activity log partitions', () => {
  // Far from today's date, so the days the migration made are not the ones tested here.
  const now = new Date('2031-06-15T12:00:00Z');
  const clock = createManualClock(now);
  const testApp = startTestAppForSuite({ clock });
  const owner = signInOwnerForSuite(testApp);
  const db = () => testApp.database.db;
  const daysAgo = (days: number, hours = 0) =>
    new Date(now.getTime() - days * DAY_MS + hours * 3_600_000);

  const sweep = () =>
    sweepExpiredRows({
      ctx: { db: db(), database: testApp.database, clock, log: testApp.app.log },
      input: { sessionMs: 30 * DAY_MS, activityLogMs: 90 * DAY_MS, batchSize: 1000, pauseMs: 0 },
    });
  const partitions = async () =>
    rowsOf<{ name: string }>(
      await db().execute(sql`
        select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
        where i.inhparent = 'activity_logs'::regclass order by 1`),
    ).map((row) => row.name);
  /** Where each of the rows with these ids lives. */
  const partitionsOf = async (ids: number[]) =>
    rowsOf<{ id: number; partition: string }>(
      await db().execute(sql`
        select id::int, tableoid::regclass::text as partition from activity_logs
        where id in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )}) order by id`),
    ).map((row) => row.partition);
  const logAt = async (
    applicationId: number,
    createdAt: Date,
    ipAddress: string | null = '198.51.100.7',
    kind: Pick<typeof activityLogs.$inferInsert, 'event' | 'success' | 'metadata'> = {
      event: 'user_login',
      success: true,
    },
  ) => {
    const [row] = await db()
      .insert(activityLogs)
      .values({ applicationId, ipAddress, createdAt, ...kind })
      .returning({ id: activityLogs.id });
    return row!.id;
  };

  it('spans the retention in twelve partitions, of a day at least', () => {
    expect(activityLogPartitionDays(90 * DAY_MS)).toBe(8);
    expect(activityLogPartitionDays(365 * DAY_MS)).toBe(31);
    expect(activityLogPartitionDays(7 * DAY_MS)).toBe(1);
  });

  it('makes today and a week ahead, moving in the rows the default partition held for them', async () => {
    const application = await insertApplication(db(), owner.accountId);
    // Before their range is made, rows land in the default partition: none is refused.
    const early = await logAt(application.id, daysAgo(0, 3));
    const ahead = await logAt(application.id, daysAgo(-6));
    const beyond = await logAt(application.id, daysAgo(-30));
    expect(await partitionsOf([early, ahead, beyond])).toEqual([
      'activity_logs_default',
      'activity_logs_default',
      'activity_logs_default',
    ]);

    // A 90-day retention: partitions of 8 days, one holding today and the week ahead.
    expect((await sweep())?.activityLogPartitionsMade).toBe(1);
    expect(await partitions()).toContain('activity_logs_20310615_20310623');
    expect(await partitionsOf([early, ahead, beyond])).toEqual([
      'activity_logs_20310615_20310623',
      'activity_logs_20310615_20310623',
      'activity_logs_default',
    ]);
    // Made once: the next sweep finds nothing to make, and every row is still counted.
    expect((await sweep())?.activityLogPartitionsMade).toBe(0);
    // Days ahead of a partition are made where the one before ends, and stop where the next
    // begins.
    expect(await createActivityLogPartitions(db(), daysAgo(-5), 8)).toBe(1);
    expect(await createActivityLogPartitions(db(), daysAgo(5), 8)).toBe(1);
    expect((await partitions()).filter((name) => /_2031(06|07)\d\d$/.test(name))).toEqual([
      'activity_logs_20310610_20310615',
      'activity_logs_20310615_20310623',
      'activity_logs_20310623_20310701',
    ]);
    await expectActivityCountersToMatchRows(db());
    await expectActivityLogTermsToMatchRows(db());
  });

  it('drops the partitions past retention whole, with their counts, and keeps the one the cutoff falls in', async () => {
    const application = await insertApplication(db(), owner.accountId);
    const other = await insertApplication(db(), owner.accountId);
    // The cutoff is 12:00 on 2031-03-17, 90 days ago: one partition wholly before it, and one
    // it falls in, as sweeps then made them.
    expect(await createActivityLogPartitions(db(), daysAgo(101), 8)).toBe(1);
    expect(await createActivityLogPartitions(db(), daysAgo(93), 8)).toBe(1);
    // Each kind of row a counter tells apart: successes, failures, a registration's login.
    const kinds = [
      { event: 'user_login', success: true },
      { event: 'login_failed', success: false },
      { event: 'user_login', success: true, metadata: { action: 'register' } },
    ];
    const expired: number[] = [];
    for (let index = 0; index < 12; index += 1) {
      expired.push(
        await logAt(
          index % 2 ? application.id : other.id,
          daysAgo(94 + (index % 7), -index),
          `198.51.100.${index % 4}`,
          kinds[index % kinds.length],
        ),
      );
    }
    // Older than the retention, but in the partition the cutoff falls in: kept with it.
    const sameRange = await logAt(application.id, daysAgo(92));
    const recent = await logAt(application.id, daysAgo(89));
    expect(await partitionsOf([expired[0]!, sameRange])).toEqual([
      'activity_logs_20310306_20310314',
      'activity_logs_20310314_20310322',
    ]);
    await expectActivityCountersToMatchRows(db());
    await expectActivityLogTermsToMatchRows(db());

    const result = await sweep();
    expect(result).toMatchObject({ activityLogPartitionsDropped: 1, activityLogsDeleted: 12 });
    const remaining = await partitions();
    expect(remaining).not.toContain('activity_logs_20310306_20310314');
    expect(remaining).toContain('activity_logs_20310314_20310322');
    const left = rowsOf<{ id: number }>(
      await db().execute(
        sql`select id::int from activity_logs
            where id in (${sql.join(
              [...expired, sameRange, recent].map((id) => sql`${id}`),
              sql`, `,
            )})
            order by id`,
      ),
    ).map((row) => row.id);
    expect(left).toEqual([sameRange, recent]);
    await expectActivityCountersToMatchRows(db());
    await expectActivityLogTermsToMatchRows(db());
    // The chart buckets of the dropped range went with it.
    const [buckets] = rowsOf<{ count: number }>(
      await db().execute(sql`
        select count(*)::int as count from activity_hourly_counts
        where application_id in (${application.id}, ${other.id})
          and hour < '2031-03-14T00:00:00Z'::timestamptz`),
    );
    expect(buckets!.count).toBe(0);
    expect((await sweep())?.activityLogPartitionsDropped).toBe(0);
  });

  /** The day counts of these applications before the given day, as [day, rows] pairs. */
  const dayCountsBefore = async (applicationIds: number[], before: string) =>
    rowsOf<{ day: string; rows: number }>(
      await db().execute(sql`
        select to_char(day at time zone 'UTC', 'YYYY-MM-DD') as day, sum(row_count)::int as rows
        from activity_day_counts
        where application_id in (${sql.join(
          applicationIds.map((id) => sql`${id}`),
          sql`, `,
        )}) and day < ${before}::timestamptz
        group by 1 order by 1`),
    ).map((row) => [row.day, row.rows]);

  it('subtracts a dropped range by its day counts, its rows still queued unfolded included', async () => {
    const application = await insertApplication(db(), owner.accountId);
    expect(await createActivityLogPartitions(db(), daysAgo(140), 8)).toBe(1);
    const kinds = [
      { event: 'user_login', success: true },
      { event: 'login_failed', success: false },
      { event: 'user_login', success: true, metadata: { action: 'register' } },
    ];
    for (let index = 0; index < 6; index += 1) {
      await logAt(
        application.id,
        daysAgo(139 - (index % 3)),
        `198.51.100.${index % 2}`,
        kinds[index % 3],
      );
    }
    await foldCounterDeltas(db());
    // The fold kept the range's rows by day, as the sweep will read them.
    expect(await dayCountsBefore([application.id], '2031-02-03T00:00:00Z')).toEqual([
      ['2031-01-27', 2],
      ['2031-01-28', 2],
      ['2031-01-29', 2],
    ]);
    // Three more rows of the range, with no address, whose deltas no fold has taken when the
    // range is dropped.
    for (let index = 0; index < 3; index += 1) {
      await logAt(application.id, daysAgo(136), null, kinds[index]);
    }
    const [queued] = rowsOf<{ count: number }>(
      await db().execute(sql`
        select count(*)::int as count from activity_counter_deltas
        where application_id = ${application.id}`),
    );
    expect(queued!.count).toBeGreaterThan(0);

    const result = await sweep();
    expect(result).toMatchObject({ activityLogPartitionsDropped: 1, activityLogsDeleted: 9 });
    expect(await dayCountsBefore([application.id], '2031-02-03T00:00:00Z')).toEqual([]);
    await expectActivityCountersToMatchRows(db());
    await expectActivityLogTermsToMatchRows(db());
  });

  // Concurrent transactions need connections of their own: PostgreSQL only.
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'waits for a fold in progress before it subtracts a dropped range',
    async () => {
      const application = await insertApplication(db(), owner.accountId);
      expect(await createActivityLogPartitions(db(), daysAgo(160), 8)).toBe(1);
      for (let index = 0; index < 4; index += 1) {
        await logAt(application.id, daysAgo(159 - index), `198.51.100.${index}`);
      }
      // A fold (another instance's, say) has taken the range's deltas and not yet committed.
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let taken!: () => void;
      const hasTaken = new Promise<void>((resolve) => (taken = resolve));
      const fold = db().transaction(async (tx) => {
        expect(await foldCounterDeltas(tx)).toBeGreaterThan(0);
        taken();
        await released;
      });
      await hasTaken;
      const sweeping = sweep();
      // The drop waits on a lock (the fold's) until that fold commits.
      await expect
        .poll(
          async () =>
            rowsOf<{ count: number }>(
              await db().execute(sql`
                select count(*)::int as count from pg_stat_activity
                where wait_event_type = 'Lock' and query like '%drop_detached_activity_log_partition%'`),
            )[0]!.count,
          { timeout: 10_000, interval: 20 },
        )
        .toBe(1);
      release();
      await fold;
      expect(await sweeping).toMatchObject({
        activityLogPartitionsDropped: 1,
        activityLogsDeleted: 4,
      });
      await expectActivityCountersToMatchRows(db());
    },
  );

  it('finishes a partition detached by a process gone before it dropped it', async () => {
    const application = await insertApplication(db(), owner.accountId);
    expect(await createActivityLogPartitions(db(), daysAgo(120), 8)).toBe(1);
    const gone = await logAt(application.id, daysAgo(120, 2));
    await db().execute(
      sql`alter table activity_logs detach partition activity_logs_20310215_20310223`,
    );
    // Detached, its row is no longer in the log, but still counted until the drop.
    expect(await partitionsOf([gone])).toEqual([]);

    expect((await sweep())?.activityLogPartitionsDropped).toBe(1);
    const [leftover] = rowsOf<{ table: string | null }>(
      await db().execute(sql`select to_regclass('activity_logs_20310215_20310223')::text as table`),
    );
    expect(leftover!.table).toBeNull();
    await expectActivityCountersToMatchRows(db());
    await expectActivityLogTermsToMatchRows(db());
  });

  it('deletes old rows outside any day partition in batches, as before', async () => {
    const application = await insertApplication(db(), owner.accountId);
    // No partition for a year ago: the row sits in the default partition, and goes by the
    // row, older than the start of the partition the cutoff falls in.
    const stray = await logAt(application.id, daysAgo(365));
    expect(await partitionsOf([stray])).toEqual(['activity_logs_default']);
    const result = await sweep();
    expect(result?.activityLogsDeleted).toBe(1);
    expect(await partitionsOf([stray])).toEqual([]);
    // Its day's count, taken to zero by the deletion, went with it.
    expect(await dayCountsBefore([application.id], daysAgo(90).toISOString())).toEqual([]);
    await expectActivityCountersToMatchRows(db());
    await expectActivityLogTermsToMatchRows(db());
  });
});
