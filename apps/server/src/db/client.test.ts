import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { migrationsFolder, openDatabase } from './client.ts';

const journal = JSON.parse(readFileSync(join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as {
  entries: unknown[];
};

describe.runIf(process.env.TEST_DATABASE_URL)('opening PostgreSQL', () => {
  it('lets instances that start together on a new database migrate it once', async () => {
    const serverUrl = process.env.TEST_DATABASE_URL!;
    const name = `latchkey_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    try {
      const instances = await Promise.all(
        [1, 2, 3].map(() => openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 2 })),
      );
      const { rows } = await instances[0]!.query({
        text: 'select count(*)::int as applied from drizzle.__drizzle_migrations',
      });
      const { rows: files } = await instances[0]!.query({
        text: "select count(*)::int as tables from information_schema.tables where table_name = 'applications'",
      });
      expect(files[0]?.tables).toBe(1);
      expect(rows[0]?.applied).toBe(journal.entries.length);
      await Promise.all(instances.map((instance) => instance.close()));
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});
