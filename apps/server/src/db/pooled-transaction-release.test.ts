import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../lib/database-errors.ts';
import { installPooledTransactionRelease } from './pooled-transaction-release.ts';

/**
 * A pool whose connection died while idle: every statement fails as node-postgres fails it.
 * Named like a pool, as drizzle decides by the constructor's name whether to check a client out.
 */
class DeadConnectionPool {
  released: (Error | undefined)[] = [];
  statements: string[] = [];
  constructor(private readonly failing: (text: string) => boolean) {}
  connect = async () => ({
    query: async (query: string | { text: string }) => {
      const text = typeof query === 'string' ? query : query.text;
      this.statements.push(text);
      if (this.failing(text)) throw new Error('Connection terminated unexpectedly');
      return { rows: [], rowCount: 0, command: 'SELECT', fields: [] };
    },
    release: (error?: Error) => {
      this.released.push(error);
    },
  });
}

describe('a pooled transaction releases its client on every path', () => {
  installPooledTransactionRelease();

  it('when BEGIN fails on a dead connection: released once, with the error (so it is destroyed)', async () => {
    const pool = new DeadConnectionPool(() => true);
    const db = drizzle(pool as never);
    const failure = await db.transaction(async () => 'never').catch((error: unknown) => error);
    expect(isDatabaseUnavailable(failure)).toBe(true);
    expect(pool.released).toHaveLength(1);
    expect(isDatabaseUnavailable(pool.released[0])).toBe(true);
    expect(pool.statements).toEqual(['begin']);
  });

  it('when the work fails and ROLLBACK fails too: the work’s error, and the client destroyed', async () => {
    const pool = new DeadConnectionPool((text) => text === 'rollback');
    const db = drizzle(pool as never);
    const failure = await db
      .transaction(async () => {
        throw new Error('the work failed');
      })
      .catch((error: unknown) => error);
    expect((failure as Error).message).toBe('the work failed');
    expect(pool.released).toHaveLength(1);
    expect(isDatabaseUnavailable(pool.released[0])).toBe(true);
  });

  it('on success and on an ordinary failure: released once, to be pooled again', async () => {
    const pool = new DeadConnectionPool(() => false);
    const db = drizzle(pool as never);
    expect(await db.transaction(async (tx) => (await tx.execute(sql`select 1`), 'done'))).toBe(
      'done',
    );
    await db
      .transaction(async () => {
        throw new Error('a refusal');
      })
      .catch(() => undefined);
    expect(pool.released).toEqual([undefined, undefined]);
    expect(pool.statements).toEqual(['begin', 'select 1', 'commit', 'begin', 'rollback']);
  });
});
