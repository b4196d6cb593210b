import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { DatabaseTarget } from '../src/db/client.ts';
import { createEmptyPostgresDatabase } from './test-database.ts';

/**
 * The database a kill -9 test's real server process runs on: PGlite in `dataDir`, or a fresh
 * PostgreSQL database with TEST_DATABASE_URL (dropped by `cleanup`). The test seeds it
 * directly before the server opens it (PGlite allows one process at a time).
 */
export async function crashTestDatabase(
  dataDir: string,
  name: string,
): Promise<{ target: DatabaseTarget; env: Record<string, string>; cleanup: () => Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    return {
      target: { kind: 'pglite', dataDir: join(dataDir, 'pglite') },
      env: {},
      cleanup: async () => {},
    };
  }
  const { url, drop } = await createEmptyPostgresDatabase(serverUrl, name);
  return {
    target: { kind: 'postgres', url, poolSize: 2 },
    env: { DATABASE_URL: url },
    cleanup: drop,
  };
}

/** Resolves once the child process has exited (at once if it already has). */
export function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((resolve) => child.once('exit', () => resolve()));
}
