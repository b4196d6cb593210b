import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.ts';
import { isDatabaseUnavailable } from '../lib/database-errors.ts';

/**
 * A backend can die under any connection: a failover, a restart, an operator's
 * pg_terminate_backend. Whatever state its connection is in (idle in the pool, checked out in a
 * transaction between statements, holding a session lock, running a query, listening), the
 * loss must reach the caller as an error it can answer 503 with, never as an uncaught 'error'
 * event that ends the process (Vitest fails the file on one), and the next caller must get a
 * working connection.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('losing PostgreSQL connections', () => {
  let database: TestDatabase;
  let admin: pg.Client;
  const connectionErrors: Error[] = [];

  beforeAll(async () => {
    database = await createTestDatabase({
      onConnectionError: (error) => connectionErrors.push(error),
    });
    admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await database?.close();
  });

  const terminate = (pid: number) => admin.query('select pg_terminate_backend($1)', [pid]);
  const backendPid = async (execute: (query: ReturnType<typeof sql>) => Promise<unknown>) => {
    const result = (await execute(sql`select pg_backend_pid() as pid`)) as {
      rows: { pid: number }[];
    };
    return result.rows[0]!.pid;
  };
  const stillAnswers = async () => {
    const { rows } = await database.query({ text: 'select 1 as one' });
    expect(rows).toEqual([{ one: 1 }]);
  };

  it('fails a transaction whose backend dies between statements, and serves the next one', async () => {
    const failure = await database.db
      .transaction(async (tx) => {
        const pid = await backendPid((query) => tx.execute(query));
        await terminate(pid);
        // The connection is idle in transaction now: its loss arrives as an 'error' event.
        await sleep(200);
        await tx.execute(sql`select 1`);
      })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(failure).toBeInstanceOf(Error);
    expect(isDatabaseUnavailable(failure)).toBe(true);
    await stillAnswers();
  });

  it('fails a query whose backend dies while it runs', async () => {
    const running = database.db.transaction(async (tx) => {
      const pid = await backendPid((query) => tx.execute(query));
      const slow = tx.execute(sql`select pg_sleep(5)`);
      await sleep(100);
      await terminate(pid);
      await slow;
    });
    const failure = await running.then(
      () => null,
      (error: unknown) => error,
    );
    expect(isDatabaseUnavailable(failure)).toBe(true);
    await stillAnswers();
  });

  it('outlives the loss of a session lock holder while its work runs', async () => {
    const holders = async () =>
      (
        await admin.query<{ pid: number }>(
          `select pid from pg_locks where locktype = 'advisory' and objid = 4242 and granted`,
        )
      ).rows.map((row) => row.pid);
    const outcome = await database
      .runExclusively(4242, async () => {
        for (const pid of await holders()) await terminate(pid);
        await sleep(200);
      })
      .then(
        (ran) => ({ ran }),
        (error: unknown) => ({ error }),
      );
    // Either way, not a crash: the work ran; releasing a lock that died with its session may fail.
    if ('error' in outcome) expect(isDatabaseUnavailable(outcome.error)).toBe(true);
    expect(await database.runExclusively(4242, async () => {})).toBe(true);
  });

  it('replaces idle pooled connections that died, telling the connection-error handler', async () => {
    const before = connectionErrors.length;
    await Promise.all([stillAnswers(), stillAnswers(), stillAnswers()]);
    const { rows } = await database.query({ text: 'select current_database() as name' });
    const { rowCount } = await admin.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
        where datname = $1 and state = 'idle' and application_name = ''`,
      [rows[0]!.name],
    );
    expect(rowCount).toBeGreaterThan(0);
    // Every terminated connection reports its loss; until it has, the pool may still hand that
    // connection out, and the query on it fails (a request lost to the failover, as expected).
    // The pool is whole again once each loss has arrived.
    const terminated = rowCount ?? 0;
    const deadline = Date.now() + 5_000;
    while (connectionErrors.length < before + terminated && Date.now() < deadline) await sleep(25);
    expect(connectionErrors.length).toBe(before + terminated);
    await stillAnswers();
  });

  it('tells the listener when its connection is lost and again when it listens again', async () => {
    const states: boolean[] = [];
    const payloads: string[] = [];
    const stop = await database.listen(
      'latchkey_connection_loss_test',
      {
        onPayload: (payload) => payloads.push(payload),
        onInterrupted: () => states.push(false),
        onResumed: () => states.push(true),
      },
      'latchkey-loss-test',
    );
    try {
      await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
          where application_name = 'latchkey-loss-test'`,
      );
      const deadline = Date.now() + 10_000;
      while (!(states.includes(false) && states.at(-1) === true) && Date.now() < deadline) {
        await sleep(25);
      }
      expect(states).toEqual([false, true]);
      await database.query({ text: "select pg_notify('latchkey_connection_loss_test', 'back')" });
      while (payloads.length === 0 && Date.now() < deadline) await sleep(25);
      expect(payloads).toEqual(['back']);
    } finally {
      await stop();
    }
  });
});
