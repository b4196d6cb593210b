import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type DatabaseConnection } from '../src/db/client.ts';
import { readPgliteTemplate } from './pglite-template.ts';

export interface TestDatabase extends DatabaseConnection {
  /**
   * Another connection to the same database, as a second instance of the server would have
   * (its own pool and listener on PostgreSQL). In-memory PGlite lives in this process only,
   * so there the "other instance" shares the one connection, and closing it does nothing.
   */
  connectAgain(): Promise<DatabaseConnection>;
}

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a new
 * database on the PostgreSQL server named by TEST_DATABASE_URL (CI runs the suite both ways).
 */
export async function createTestDatabase(
  options: { onConnectionError?: (error: Error) => void } = {},
): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const template = readPgliteTemplate();
    const connection = await openDatabase({
      kind: 'pglite',
      dataDir: null,
      ...(template ? { loadDataDir: template } : {}),
    });
    return {
      ...connection,
      connectAgain: async () => ({ ...connection, close: async () => {} }),
    };
  }

  const name = `latchkey_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  // Teardown drops the database WITH (FORCE), which terminates connections still open:
  // expected here, so not reported.
  const connection = await openDatabase(
    { kind: 'postgres', url: url.toString(), poolSize: 5 },
    options.onConnectionError ?? (() => {}),
  );
  return {
    ...connection,
    connectAgain: () =>
      openDatabase(
        { kind: 'postgres', url: url.toString(), poolSize: 5 },
        options.onConnectionError ?? (() => {}),
      ),
    close: async () => {
      await connection.close();
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      try {
        await dropWithRetries(cleanup, name);
      } finally {
        await cleanup.end();
      }
    },
  };
}

/**
 * WITH (FORCE) was once refused in CI with insufficient_privilege ("must be a member of the
 * role whose process is being terminated"): a backend of no login role was in the database,
 * most likely an autovacuum worker analysing it (tests write thousands of rows), which a
 * role without pg_signal_backend may not terminate. Such a worker finishes soon.
 */
export async function dropWithRetries(client: pg.Client, name: string): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await client.query(`drop database if exists ${name} with (force)`);
      return;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (attempt >= 20 || (code !== '42501' && code !== '55006')) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/**
 * An empty database on the PostgreSQL server of `serverUrl`, for tests that start real server
 * processes (which migrate it themselves): its URL, and a drop that never fails the teardown.
 */
export async function createEmptyPostgresDatabase(
  serverUrl: string,
  prefix: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`).catch(() => {});
      await cleanup.end();
    },
  };
}
