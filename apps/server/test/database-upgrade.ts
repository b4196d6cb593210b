import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { migrationsFolder, type Database, type DatabaseTarget } from '../src/db/client.ts';
import { ownerAccounts } from '../src/db/schema/index.ts';
import { createEmptyPostgresDatabase } from './test-database.ts';

/**
 * A database as an installation that has not upgraded past a migration has it: the committed
 * migrations before `tag`, in a folder of their own, and an empty database (PostgreSQL with
 * TEST_DATABASE_URL, else a PGlite directory) to run them on. Open it with `migrationsFolder`
 * set to `oldMigrations` to seed it, then without to upgrade it. `cleanup` removes both.
 */
export async function databaseBeforeMigration(
  tag: string,
  name: string,
): Promise<{ target: DatabaseTarget; oldMigrations: string; cleanup: () => Promise<void> }> {
  const oldMigrations = mkdtempSync(join(tmpdir(), 'latchkey-migrations-'));
  cpSync(migrationsFolder, oldMigrations, { recursive: true });
  const journalPath = join(oldMigrations, 'meta/_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as {
    entries: Array<{ tag: string }>;
  };
  const index = journal.entries.findIndex((entry) => entry.tag === tag);
  if (index <= 0) throw new Error(`no migration ${tag} after the first`);
  journal.entries = journal.entries.slice(0, index);
  writeFileSync(journalPath, JSON.stringify(journal));
  const removeMigrations = () => rmSync(oldMigrations, { recursive: true, force: true });

  if (process.env.TEST_DATABASE_URL) {
    const { url, drop } = await createEmptyPostgresDatabase(
      process.env.TEST_DATABASE_URL,
      `latchkey_test_${name}`,
    );
    return {
      target: { kind: 'postgres', url, poolSize: 4 },
      oldMigrations,
      cleanup: async () => {
        await drop();
        removeMigrations();
      },
    };
  }
  const dataDir = mkdtempSync(join(tmpdir(), `latchkey-${name}-`));
  return {
    target: { kind: 'pglite', dataDir },
    oldMigrations,
    cleanup: async () => {
      rmSync(dataDir, { recursive: true, force: true });
      removeMigrations();
    },
  };
}

/**
 * An owner and `count` applications in a database not yet upgraded. The applications are
 * written by hand, with the columns every schema since the first has had: the table as the
 * code knows it now has more, which an old database lacks.
 */
export async function seedOldApplications(
  db: Database,
  { name, count }: { name: string; count: number },
): Promise<void> {
  const [owner] = await db
    .insert(ownerAccounts)
    .values({ firebaseUid: `${name}-owner`, email: `${name}@example.com`, role: 'owner' })
    .returning();
  await db.execute(sql`
    insert into applications (owner_account_id, name, api_key, login_success_message,
      login_failed_message, account_disabled_message, account_expired_message,
      version_mismatch_message, hwid_mismatch_message, signing_public_key,
      signing_private_key_encrypted)
    select ${owner!.id}, ${name} || ' app ' || i,
      'lk_live_' || md5(${name} || i),
      'ok', 'failed', 'disabled', 'expired', 'version', 'hwid', ${'00'.repeat(32)}, 'placeholder'
    from generate_series(1, ${count}::int) as i`);
}
