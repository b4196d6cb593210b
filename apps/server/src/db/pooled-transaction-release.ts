import { sql } from 'drizzle-orm';
import { NodePgSession, NodePgTransaction } from 'drizzle-orm/node-postgres';
import type { PgTransactionConfig } from 'drizzle-orm/pg-core';
import type { PoolClient } from 'pg';
import { isDatabaseUnavailable } from '../lib/database-errors.ts';

type Work = (tx: NodePgTransaction<never, never>) => Promise<unknown>;

interface SessionInternals {
  client: unknown;
  dialect: ConstructorParameters<typeof NodePgSession>[1];
  schema: ConstructorParameters<typeof NodePgSession>[2];
  options: ConstructorParameters<typeof NodePgSession>[3];
}

let isInstalled = false;

/**
 * drizzle-orm's node-postgres `transaction()` (0.45.4, the latest release) checks a client out of
 * the pool and sends BEGIN before the try/finally that releases it: when BEGIN fails, which is
 * what a connection that died while idle in the pool does, the client is never released. After
 * as many such failures as the pool has connections, every query waits forever for one, and the
 * server answers nothing until it is restarted. Reported upstream and not fixed in a release:
 * https://github.com/drizzle-team/drizzle-orm/issues/6023 (and 6241, 6114).
 *
 * This replaces that one method with the same steps in a safe order: the client is released on
 * every path, with the error when its connection was lost (so pg-pool destroys it rather than
 * pooling it again), and a failed ROLLBACK no longer hides the error that caused it. Nested
 * transactions (savepoints) and the non-pooled path are drizzle's own. Installed once, before
 * the first database is opened; remove it when a drizzle release fixes the method.
 */
export function installPooledTransactionRelease(): void {
  if (isInstalled) return;
  isInstalled = true;
  const original = NodePgSession.prototype.transaction;
  NodePgSession.prototype.transaction = async function transaction<T>(
    this: NodePgSession<never, never>,
    work: Work,
    config?: PgTransactionConfig,
  ): Promise<T> {
    const self = this as unknown as SessionInternals;
    if (!isPool(self.client)) {
      return original.call(this, work as never, config) as Promise<T>;
    }
    const client = await (self.client as { connect(): Promise<PoolClient> }).connect();
    const session = new NodePgSession(client, self.dialect, self.schema, self.options);
    const tx = new NodePgTransaction(self.dialect, session, self.schema);
    let lostConnection: Error | undefined;
    try {
      await tx.execute(sql`begin${config ? sql` ${configSql(tx, config)}` : undefined}`);
      try {
        const result = (await work(tx as never)) as T;
        await tx.execute(sql`commit`);
        return result;
      } catch (error) {
        await tx.execute(sql`rollback`).catch((rollbackError: unknown) => {
          lostConnection = rollbackError as Error;
        });
        throw error;
      }
    } catch (error) {
      if (isDatabaseUnavailable(error)) lostConnection ??= error as Error;
      throw error;
    } finally {
      client.release(lostConnection);
    }
  } as typeof NodePgSession.prototype.transaction;
}

/** The isolation level and access mode as drizzle writes them (an internal method of its own). */
function configSql(tx: object, config: PgTransactionConfig): ReturnType<typeof sql> {
  const withConfig = tx as {
    getTransactionConfigSQL(config: PgTransactionConfig): ReturnType<typeof sql>;
  };
  return withConfig.getTransactionConfigSQL(config);
}

/** drizzle's own test: a pg Pool, or a pool of another package that calls itself one. */
function isPool(client: unknown): boolean {
  const constructorName = (Object.getPrototypeOf(client) as { constructor?: { name?: string } })
    .constructor?.name;
  return typeof constructorName === 'string' && constructorName.includes('Pool');
}
