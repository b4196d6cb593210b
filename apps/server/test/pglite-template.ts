import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { serverAssetPaths } from '../src/server-asset-paths.ts';

/**
 * A migrated PGlite data directory, dumped once per test run by the global setup and loaded by
 * every in-memory test database. A fresh PGlite runs initdb, about 1.2 s of CPU; loading the
 * dump takes about 0.4 s, and the suite opens over a hundred databases (measured in the
 * commit that added this). Each database still runs the migrator, which finds nothing to do,
 * so a stale template could never hide a migration.
 */
export async function writePgliteTemplate(path: string): Promise<() => void> {
  // The same extensions as openDatabase's; a loaded dump needs them registered again.
  const client = new PGlite({ extensions: { pg_trgm } });
  try {
    await migrate(drizzle(client), { migrationsFolder: serverAssetPaths.migrationsFolder });
    const dump = await client.dumpDataDir('none');
    writeFileSync(path, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await client.close();
  }
  return () => rmSync(path, { force: true });
}

let template: Blob | null | undefined;

/** The template of this run, or null when none was written (a database then starts empty). */
export function readPgliteTemplate(): Blob | null {
  if (template !== undefined) return template;
  const path = process.env.TEST_PGLITE_TEMPLATE;
  template = path && existsSync(path) ? new Blob([readFileSync(path)]) : null;
  return template;
}
