import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseBeforeMigration, seedOldApplications } from '../../test/database-upgrade.ts';
import { foldCounterDeltas } from '../modules/activity/index.ts';
import { openDatabase } from './client.ts';
import { rowsOf } from './rows-of.ts';

/** The migration that replaced the counters' sharded upserts with folded deltas. */
const DELTAS_MIGRATION = '0035_activity_counter_deltas';

describe('upgrading to folded counter deltas', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('keeps every sum of the sharded counters, in one row per key', async () => {
    const { target, oldMigrations, cleanup } = await databaseBeforeMigration(
      DELTAS_MIGRATION,
      'deltas_upgrade',
    );
    cleanups.push(cleanup);
    // Before: logins written from several backends, so each counter spread over shards.
    const before = await openDatabase({ ...target, migrationsFolder: oldMigrations });
    await seedOldApplications(before.db, { name: 'upgrade', count: 1 });
    await before.db.execute(sql`
      insert into activity_logs (application_id, event, success, ip_address, created_at)
      select a.id, (array['user_login', 'login_failed', 'user_register'])[1 + i % 3], i % 3 = 0,
             '192.0.2.' || (i % 5), now() - (i % 30) * interval '1 hour'
      from applications a, generate_series(1, 90) as i`);
    // The seed's counters sit in one shard each (one writer); move part of each into the next
    // shard, as writers on other backends would have left it.
    await before.db.execute(sql`
      with moved as (
        update activity_counts set login_attempts = login_attempts - 5,
                                   login_successes = login_successes - 2
        returning application_id, shard
      )
      insert into activity_counts (application_id, shard, login_attempts, login_successes)
      select application_id, (shard + 1) % 16, 5, 2 from moved`);
    await before.db.execute(sql`
      with moved as (
        update activity_hourly_counts set row_count = row_count - 4
        returning application_id, hour, event, shard
      )
      insert into activity_hourly_counts (application_id, hour, event, shard, row_count)
      select application_id, hour, event, (shard + 1) % 16, 4 from moved`);
    const sums = async (db: typeof before.db) =>
      rowsOf<Record<string, number>>(
        await db.execute(sql`
          select
            (select sum(login_attempts)::int from activity_counts) as attempts,
            (select sum(login_successes)::int from activity_counts) as successes,
            (select sum(row_count)::int from activity_event_counts) as events,
            (select sum(row_count)::int from activity_hourly_counts) as hourly,
            (select count(*)::int from (select distinct hour, event from activity_hourly_counts) b) as buckets,
            (select count(*)::int from activity_logs) as rows`),
      )[0]!;
    const expected = await sums(before.db);
    expect(expected).toMatchObject({ attempts: 60, successes: 30, events: 90, hourly: 90 });
    await before.close();

    const after = await openDatabase(target);
    try {
      expect(await sums(after.db)).toEqual(expected);
      const [hourlyRows] = rowsOf<{ count: number }>(
        await after.db.execute(sql`select count(*)::int as count from activity_hourly_counts`),
      );
      expect(hourlyRows!.count).toBe(expected.buckets);
      // And the rows written from now on reach the counters through the fold.
      await after.db.execute(sql`
        insert into activity_logs (application_id, event, success)
        select id, 'user_login', true from applications`);
      await foldCounterDeltas(after.db);
      expect(await sums(after.db)).toMatchObject({
        attempts: expected.attempts! + 1,
        successes: expected.successes! + 1,
        rows: expected.rows! + 1,
      });
    } finally {
      await after.close();
    }
  });
});
