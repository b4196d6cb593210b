import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/test-database.ts';
import { startCounterFolder } from './fold-counter-deltas.ts';

describe('the counter folder', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  const queueBytes = async () =>
    Number(
      (
        await database.query({
          text: "select pg_relation_size('activity_counter_deltas')::int as bytes",
        })
      ).rows[0]!.bytes,
    );
  const queueDeltas = (count: number) =>
    database.db.execute(sql`
      insert into activity_counter_deltas
        (application_id, hour, event, ip_address, row_count, success_count, login_attempts, login_successes)
      select 1, date_trunc('hour', now()), 'user_login', '192.0.2.1', 1, 1, 1, 1
      from generate_series(1, ${count}::int)`);

  it('folds on its schedule, and folds once more when stopped', async () => {
    const folder = startCounterFolder({ database, log: pino({ level: 'silent' }), intervalMs: 5 });
    await queueDeltas(50);
    const deadline = Date.now() + 10_000;
    const pending = async () =>
      Number(
        (
          await database.query({
            text: 'select count(*)::int as pending from activity_counter_deltas',
          })
        ).rows[0]!.pending,
      );
    while ((await pending()) > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(await pending()).toBe(0);
    await queueDeltas(5);
    await folder.stop();
    expect(await pending()).toBe(0);
  });

  // PGlite runs no autovacuum: a queue only ever deleted from would keep every page it filled.
  it.runIf(!process.env.TEST_DATABASE_URL)(
    'keeps the queue from growing on PGlite, which never vacuums it otherwise',
    async () => {
      await queueDeltas(3_000);
      expect(await queueBytes()).toBeGreaterThan(100_000);
      const folder = startCounterFolder({
        database,
        log: pino({ level: 'silent' }),
        intervalMs: 2,
      });
      const deadline = Date.now() + 10_000;
      while ((await queueBytes()) > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await folder.stop();
      expect(await queueBytes()).toBe(0);
    },
  );
});
