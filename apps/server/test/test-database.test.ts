import { sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from './test-database.ts';

describe.runIf(process.env.TEST_DATABASE_URL)('PostgreSQL connection loss', () => {
  it('survives an idle connection being terminated (reported, not thrown)', async () => {
    const errors: Error[] = [];
    const database = await createTestDatabase({ onConnectionError: (error) => errors.push(error) });
    const result = await database.db.execute(sql`select pg_backend_pid() as pid`);
    const { pid } = (result as unknown as { rows: Array<{ pid: number }> }).rows[0]!;

    // What a database restart or an administrator does to an idle connection.
    const killer = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await killer.connect();
    await killer.query('select pg_terminate_backend($1)', [pid]);
    await killer.end();
    await expect.poll(() => errors.length, { timeout: 5_000 }).toBeGreaterThan(0);

    await database.ping();
    await database.close();
  });
});
