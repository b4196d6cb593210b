import { mkdirSync, readFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { keepToCpus } from '../lib/cpu-priority.ts';
import { isDatabaseUnavailable } from '../lib/database-errors.ts';
import type { Pool } from 'pg';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { serverAssetPaths } from '../server-asset-paths.ts';
import { listenForNotifications, type NotificationHandlers } from './notification-listener.ts';
import { installPooledTransactionRelease } from './pooled-transaction-release.ts';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;

/**
 * The database handle verbs receive: the root database or a transaction. Both drivers
 * (node-postgres and PGlite) produce this type, so verbs never know which one runs.
 */
export type Database = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;

/** Where the migrations come from: the committed ones unless a test upgrades from older ones. */
interface MigrationSource {
  migrationsFolder?: string;
}

export type DatabaseTarget = MigrationSource &
  (
    | {
        kind: 'pglite';
        dataDir: string | null;
        /**
         * A data directory dumped by PGlite's `dumpDataDir` to start from instead of running
         * initdb (about 1 s of CPU each time): the test suite's migrated template.
         */
        loadDataDir?: Blob;
      }
    | {
        kind: 'postgres';
        url: string;
        poolSize: number;
        /**
         * Each pool connection's PostgreSQL backend is given this niceness when the
         * operating system allows it (the database on this machine, and the server running as
         * root, as PostgreSQL's user, or with CAP_SYS_NICE), so the console's queries yield the
         * CPU to the client API's, and kept to its side's CPUs (CONSOLE_WORKER_CPUS). Told once
         * when it is not allowed.
         */
        backendPriority?: BackendPriority;
        /** The pool's name in pg_stat_activity (the side a worker serves, with CLIENT_API_PORT). */
        applicationName?: string;
      }
  );

/** A side's backends with CLIENT_API_PORT: the console's niceness, each side's CPUs. */
export interface BackendPriority {
  niceness: number;
  /** A taskset CPU list the backends are kept to, or null for any CPU. */
  cpus: string | null;
  onRefused: (error: Error) => void;
}

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

/** A node-postgres pool's connections at one moment (metrics). */
export interface PoolUsage {
  /** Open connections, idle or busy. */
  total: number;
  idle: number;
  /** Queries waiting for a connection: the pool is exhausted. */
  waiting: number;
  max: number;
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
  /**
   * Hears `NOTIFY channel` from every instance on this database (how instances tell each
   * other what to drop from their caches). Answers once listening; the result stops it.
   */
  listen(
    channel: string,
    handlers: NotificationHandlers,
    /**
     * The connection's application_name. Only the cache-invalidation listener keeps
     * LISTENER_NAME: announcements count those connections to know how many acknowledgements
     * to wait for, so any other listener must be named otherwise.
     */
    connectionName?: string,
  ): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /** The pool's use now; null on PGlite, which has one in-process session and no pool. */
  poolUsage(): PoolUsage | null;
}

/** The application_name of each instance's LISTEN connection. */
export const LISTENER_NAME = 'latchkey-listener';

/** Held while migrating, so instances starting together apply each migration once. */
const MIGRATION_LOCK_KEY = 0x4c4b_4d47; // 'LKMG'

export const { migrationsFolder } = serverAssetPaths;

/** See the 'connect' listener in openDatabase: the caller hears of the loss from its statement. */
const ignoreCheckedOutConnectionLoss = () => undefined;

/** Opens the database and applies committed migrations, so start-up leaves it current. */
export async function openDatabase(
  target: DatabaseTarget,
  onConnectionError: (error: Error) => void = (error) =>
    console.error(`database connection lost: ${error.message}`),
  /** Told every ORM statement before it runs (bench:scale explains the console's reads). */
  logQuery?: (query: string, params: unknown[]) => void,
): Promise<DatabaseConnection> {
  const logger = logQuery ? { logQuery } : undefined;
  if (target.kind === 'postgres') {
    const { default: pg } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    installPooledTransactionRelease();
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    const pool = new pg.Pool({
      connectionString: target.url,
      max: target.poolSize,
      ...(target.applicationName ? { application_name: target.applicationName } : {}),
    });
    // An idle connection can die under us (a database restart, a failover, an admin's
    // pg_terminate_backend). Without a listener node-postgres rethrows that as an uncaught
    // exception and the whole server exits; the pool replaces the connection on next use.
    pool.on('error', onConnectionError);
    // pg-pool listens for that event only while a connection is idle in the pool: a connection
    // checked out (in a transaction between statements, or holding a session lock) has no
    // listener, and its loss would end the process. Each connection keeps one of its own for
    // its whole life; the loss reaches the caller anyway, as the failure of its next statement
    // (isDatabaseUnavailable: a 503), and pg-pool discards the connection when it is released.
    pool.on('connect', (client) => {
      client.on('error', ignoreCheckedOutConnectionLoss);
    });
    if (target.backendPriority) lowerBackendPriority(pool, target.backendPriority);
    const db = drizzle(pool, { schema, ...(logger ? { logger } : {}) });
    // drizzle's migrator takes no lock: two instances starting at once would both apply a
    // new migration, and one would fail. The lock waits on a connection of its own while
    // the migration runs through the pool; the second instance then finds nothing to do.
    const lockHolder = await pool.connect();
    try {
      await lockHolder.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      try {
        await migrate(db, { migrationsFolder: target.migrationsFolder ?? migrationsFolder });
      } finally {
        await lockHolder.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
      }
    } finally {
      lockHolder.release();
    }
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
        let lostConnection: Error | undefined;
        try {
          const { rows } = await client.query<{ locked: boolean }>(
            'select pg_try_advisory_lock($1) as locked',
            [lockKey],
          );
          if (!rows[0]?.locked) return false;
          try {
            await work();
          } finally {
            // A session lock dies with its session: if the connection was lost meanwhile, the
            // lock is already released and there is nothing to undo.
            await client.query('select pg_advisory_unlock($1)', [lockKey]).catch((error) => {
              if (!isDatabaseUnavailable(error)) throw error;
              lostConnection = error as Error;
            });
          }
          return true;
        } catch (error) {
          if (isDatabaseUnavailable(error)) lostConnection = error as Error;
          throw error;
        } finally {
          // Given the loss, pg-pool discards the connection instead of pooling a dead one.
          client.release(lostConnection);
        }
      },
      listen: (channel, handlers, connectionName = LISTENER_NAME) =>
        listenForNotifications({
          // Named, so an operator (or a test) can tell it apart in pg_stat_activity.
          connect: () =>
            new pg.Client({ connectionString: target.url, application_name: connectionName }),
          channel,
          handlers,
          onConnectionError,
        }),
      close: () => pool.end(),
      poolUsage: () => ({
        total: pool.totalCount,
        idle: pool.idleCount,
        waiting: pool.waitingCount,
        max: target.poolSize,
      }),
    };
  }

  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  if (target.dataDir) mkdirSync(target.dataDir, { recursive: true });
  // pg_trgm: the trigram indexes of the owner's searches (migration 0010).
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const options = {
    extensions: { pg_trgm },
    ...(target.loadDataDir ? { loadDataDir: target.loadDataDir } : {}),
  };
  const client = target.dataDir ? new PGlite(target.dataDir, options) : new PGlite(options);
  const db = drizzle(client, { schema, ...(logger ? { logger } : {}) });
  await migrate(db, { migrationsFolder: target.migrationsFolder ?? migrationsFolder });
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
    // In-process: every listener is in this process, and none is ever interrupted.
    listen: async (channel, handlers) => {
      const unlisten = await client.listen(channel, handlers.onPayload);
      return () => unlisten();
    },
    close: () => client.close(),
    poolUsage: () => null,
  };
}

/**
 * Lowers the CPU priority of each new connection's backend process. Its pid is the
 * one the server announced when the connection opened. A pid that is not a local PostgreSQL
 * process (a database on another machine, whose pids mean nothing here) or a refusal (EPERM)
 * stops all attempts.
 */
function lowerBackendPriority(pool: Pool, { niceness, cpus, onRefused }: BackendPriority): void {
  let isAllowed = true;
  const refuse = (error: Error) => {
    if (!isAllowed) return;
    isAllowed = false;
    onRefused(error);
  };
  pool.on('connect', (client) => {
    // Sent by the server at connection start (BackendKeyData): no query needed.
    const pid = (client as unknown as { processID?: number }).processID;
    if (!isAllowed || !pid) return;
    try {
      const command = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
      if (command !== 'postgres') {
        throw new Error(`process ${pid} is ${command}, not a local PostgreSQL backend`);
      }
      if (niceness > 0) setPriority(pid, niceness);
    } catch (error) {
      return refuse(error as Error);
    }
    if (cpus !== null) keepToCpus(pid, cpus, { allThreads: false }).catch(refuse);
  });
}
