import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { expectActivityCountersToMatchRows } from '../../test/activity-counters-oracle.ts';
import { databaseBeforeMigration, seedOldApplications } from '../../test/database-upgrade.ts';
import { foldCounterDeltas } from '../modules/activity/index.ts';
import { openDatabase } from './client.ts';
import { rowsOf } from './rows-of.ts';

/** The migration that keeps the log's groups per day for the retention sweep. */
const DAY_COUNTS_MIGRATION = '0047_activity_day_counts';

/** Rows per application, UTC day, event and address, counted from the given rows. */
const groupsOf = (rows: ReturnType<typeof sql>) => sql`
  select application_id, to_char(date_trunc('day', created_at, 'UTC') at time zone 'UTC', 'YYYY-MM-DD') as day,
         event, ip_address, count(*)::int as rows,
         count(*) filter (where success)::int as successes,
         count(*) filter (where counts_as_login_attempt(event, metadata))::int as attempts
  from (${rows}) r group by 1, 2, 3, 4 order by 1, 2, 3, 4`;

describe('upgrading to day counts of the activity log', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('counts every row there is, a detached partition included, and none twice', async () => {
    const { target, oldMigrations, cleanup } = await databaseBeforeMigration(
      DAY_COUNTS_MIGRATION,
      'day_counts_upgrade',
    );
    cleanups.push(cleanup);
    const before = await openDatabase({ ...target, migrationsFolder: oldMigrations });
    await seedOldApplications(before.db, { name: 'days', count: 2 });
    // A range of 200 days ago, detached by a sweep whose process then died: its rows are out
    // of the log but still in the totals until the next sweep drops it.
    await before.db.execute(
      sql`select create_activity_log_partitions(now() - interval '200 days', now() - interval '199 days', 8)`,
    );
    // Rows of every recent day and of the old range, of each kind a counter tells apart; their
    // deltas are all still queued when the migration runs (no fold has taken them).
    await before.db.execute(sql`
      insert into activity_logs (application_id, username, event, success, ip_address, metadata, created_at)
      select a.id, 'user' || (i % 7), (array['user_login', 'login_failed', 'user_login'])[1 + i % 3],
             i % 3 <> 1, case when i % 4 = 0 then null else '192.0.2.' || (i % 5) end,
             case when i % 3 = 2 then '{"action":"register"}'::jsonb end,
             case when i % 5 = 0 then now() - interval '197 days' - (i % 3) * interval '1 day'
                  else now() - (i % 20) * interval '1 day' end
      from applications a, generate_series(1, 120) as i`);
    const [range] = rowsOf<{ name: string }>(
      await before.db.execute(sql`
        select name from activity_log_partition_ranges()
        where range_end / 1000 < extract(epoch from now() - interval '150 days')`),
    );
    await before.db.execute(
      sql`alter table activity_logs detach partition ${sql.identifier(range!.name)}`,
    );
    await before.close();

    const after = await openDatabase(target);
    try {
      await foldCounterDeltas(after.db);
      const kept = rowsOf<Record<string, unknown>>(
        await after.db.execute(sql`
          select application_id, to_char(day at time zone 'UTC', 'YYYY-MM-DD') as day, event,
                 ip_address, row_count::int as rows, success_count::int as successes,
                 login_attempts::int as attempts
          from activity_day_counts order by 1, 2, 3, 4`),
      );
      const truth = rowsOf<Record<string, unknown>>(
        await after.db.execute(
          groupsOf(
            sql`select * from activity_logs union all select * from ${sql.identifier(range!.name)}`,
          ),
        ),
      );
      expect(truth.length).toBeGreaterThan(20);
      expect(kept).toEqual(truth);

      // Dropping the detached range takes its rows out of the totals by its day counts.
      const [dropped] = rowsOf<{ rows: number }>(
        await after.db.execute(
          sql`select drop_detached_activity_log_partition(${range!.name})::int as rows`,
        ),
      );
      expect(dropped!.rows).toBe(48);
      await expectActivityCountersToMatchRows(after.db);
    } finally {
      await after.close();
    }
  });
});
