import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;

/**
 * The database handle verbs receive: the root database or a transaction. Both drivers
 * (node-postgres and PGlite) produce this type, so verbs never know which one runs.
 */
export type Database = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;

export type DatabaseTarget =
  { kind: 'pglite'; dataDir: string | null } | { kind: 'postgres'; url: string; poolSize: number };

/** A statement for `DatabaseConnection.query`; a name makes node-postgres prepare it once per connection. */
export interface RawStatement {
  name?: string;
  text: string;
  values?: unknown[];
}

export interface RawQueryResult {
  rows: Record<string, unknown>[];
  /** Rows returned, or changed by an INSERT, UPDATE or DELETE without RETURNING. */
  rowCount: number;
}

export interface DatabaseConnection {
  db: Database;
  kind: 'pglite' | 'postgres';
  /**
   * Plain SQL outside the ORM, in node-postgres's calling convention, for libraries that
   * bring their own statements (the shared throttle store).
   */
  query(statement: RawStatement): Promise<RawQueryResult>;
  /** Answers quickly whether the database is reachable (health checks). */
  ping(): Promise<void>;
  /**
   * Runs `work` unless another holder of `lockKey` (in this or any other instance) is
   * running; answers whether it ran. For background jobs that one instance at a time does.
   */
  runExclusively(lockKey: number, work: () => Promise<void>): Promise<boolean>;
  close(): Promise<void>;
}

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/** Opens the database and applies committed migrations, so start-up leaves it current. */
export async function openDatabase(
  target: DatabaseTarget,
  onConnectionError: (error: Error) => void = (error) =>
    console.error(`database connection lost: ${error.message}`),
): Promise<DatabaseConnection> {
  if (target.kind === 'postgres') {
    const { default: pg } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    const pool = new pg.Pool({ connectionString: target.url, max: target.poolSize });
    // An idle connection can die under us (a database restart, a failover, an admin's
    // pg_terminate_backend). Without a listener node-postgres rethrows that as an uncaught
    // exception and the whole server exits; the pool replaces the connection on next use.
    pool.on('error', onConnectionError);
    const db = drizzle(pool, { schema });
    await migrate(db, { migrationsFolder });
    return {
      db: db as unknown as Database,
      kind: 'postgres',
      query: async (statement) => {
        const result = await pool.query<Record<string, unknown>>(statement);
        return { rows: result.rows, rowCount: result.rowCount ?? 0 };
      },
      ping: async () => {
        await pool.query('select 1');
      },
      // A session-level advisory lock on a connection of its own: held across the work's
      // many short transactions (on other connections) without being a long transaction.
      runExclusively: async (lockKey, work) => {
        const client = await pool.connect();
        try {
          const { rows } = await client.query<{ locked: boolean }>(
            'select pg_try_advisory_lock($1) as locked',
            [lockKey],
          );
          if (!rows[0]?.locked) return false;
          try {
            await work();
          } finally {
            await client.query('select pg_advisory_unlock($1)', [lockKey]);
          }
          return true;
        } finally {
          client.release();
        }
      },
      close: () => pool.end(),
    };
  }

  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  if (target.dataDir) mkdirSync(target.dataDir, { recursive: true });
  const client = target.dataDir ? new PGlite(target.dataDir) : new PGlite();
  const db = drizzle(client, { schema });
  await migrate(db, { migrationsFolder });
  // Only one process can open a PGlite data directory, so "another instance" can only be
  // this one; its single session would also re-enter an advisory lock it already holds.
  const heldLocks = new Set<number>();
  return {
    db: db as unknown as Database,
    kind: 'pglite',
    // PGlite has no named statements, and reports changed rows as affectedRows.
    query: async ({ text, values }) => {
      const result = await client.query<Record<string, unknown>>(text, values);
      return {
        rows: result.rows,
        rowCount: Math.max(result.rows.length, result.affectedRows ?? 0),
      };
    },
    ping: async () => {
      await client.query('select 1');
    },
    runExclusively: async (lockKey, work) => {
      if (heldLocks.has(lockKey)) return false;
      heldLocks.add(lockKey);
      try {
        await work();
      } finally {
        heldLocks.delete(lockKey);
      }
      return true;
    },
    close: () => client.close(),
  };
}
