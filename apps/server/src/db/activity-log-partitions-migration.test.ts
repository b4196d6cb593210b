import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { expectActivityCountersToMatchRows } from '../../test/activity-counters-oracle.ts';
import { expectActivityLogTermsToMatchRows } from '../../test/activity-log-terms-oracle.ts';
import { databaseBeforeMigration, seedOldApplications } from '../../test/database-upgrade.ts';
import { openDatabase } from './client.ts';
import { rowsOf } from './rows-of.ts';

/** The migration that partitioned the activity log by day. */
const PARTITIONS_MIGRATION = '0043_activity_log_partitions';

describe('upgrading to a partitioned activity log', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('keeps every row where it was, numbered as before, and counts on from there', async () => {
    const { target, oldMigrations, cleanup } = await databaseBeforeMigration(
      PARTITIONS_MIGRATION,
      'partitions_upgrade',
    );
    cleanups.push(cleanup);
    const before = await openDatabase({ ...target, migrationsFolder: oldMigrations });
    await seedOldApplications(before.db, { name: 'partition', count: 2 });
    // Two months of rows (one written "tomorrow" by a clock ahead), and ids with a gap where a
    // transaction rolled back: the new numbering must not reuse any.
    await before.db.execute(sql`
      insert into activity_logs (application_id, username, event, success, ip_address, metadata, created_at)
      select a.id, 'user' || (i % 7), (array['user_login', 'login_failed', 'user_register'])[1 + i % 3],
             i % 3 = 0, '192.0.2.' || (i % 5), jsonb_build_object('n', i),
             now() - (i % 60) * interval '1 day' + interval '20 hours'
      from applications a, generate_series(1, 150) as i`);
    await before.db.execute(sql`select nextval('activity_logs_id_seq')`);
    const snapshot = async (db: typeof before.db) =>
      rowsOf<Record<string, unknown>>(
        await db.execute(sql`
          select id, application_id, username, event, success, ip_address, metadata, created_at
          from activity_logs order by id`),
      );
    const rows = await snapshot(before.db);
    expect(rows).toHaveLength(300);
    const [sequence] = rowsOf<{ last: string | number }>(
      await before.db.execute(sql`select last_value as last from activity_logs_id_seq`),
    );
    await before.close();

    const after = await openDatabase(target);
    try {
      expect(await snapshot(after.db)).toEqual(rows);
      const partitions = rowsOf<{ name: string; rows: number }>(
        await after.db.execute(sql`
          select c.relname as name,
                 (select count(*)::int from activity_logs l where l.tableoid = c.oid) as rows
          from pg_inherits i join pg_class c on c.oid = i.inhrelid
          where i.inhparent = 'activity_logs'::regclass order by 1`),
      );
      // The old rows stay together in one partition, of everything before the day after the
      // newest of them; from there on partitions are made, a week ahead.
      const kept = partitions.filter((partition) => partition.name.includes('_before_'));
      expect(kept).toHaveLength(1);
      expect(kept[0]!.rows).toBe(300);
      const ahead = partitions.filter((partition) =>
        /^activity_logs_\d{8}_\d{8}$/.test(partition.name),
      );
      expect(ahead.length).toBeGreaterThanOrEqual(1);
      expect(partitions.map((partition) => partition.name)).toContain('activity_logs_default');

      // New rows get ids after every id handed out before, and reach the counters.
      const inserted = rowsOf<{ id: string | number; partition: string }>(
        await after.db.execute(sql`
          insert into activity_logs (application_id, event, success, created_at)
          select id, 'user_login', true, now() + interval '2 days' from applications
          returning id, tableoid::regclass::text as partition`),
      );
      expect(inserted.map((row) => Number(row.id)).sort()).toEqual([
        Number(sequence!.last) + 1,
        Number(sequence!.last) + 2,
      ]);
      expect(inserted[0]!.partition).toMatch(/^activity_logs_\d{8}_\d{8}$/);
      await expectActivityCountersToMatchRows(after.db);
      // The search's terms of the rows kept (a later migration's), as of the rows written since.
      await expectActivityLogTermsToMatchRows(after.db);
    } finally {
      await after.close();
    }
  });
});
