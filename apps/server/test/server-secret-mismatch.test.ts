import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_ERROR_EXIT_CODE } from '../src/cluster-primary.ts';
import { findFreePortBlock } from './free-port-block.ts';
import { startRealServer } from './real-server.ts';
import { createEmptyPostgresDatabase } from './test-database.ts';

/**
 * Two `npm start` instances on one DATABASE_URL with
 * their own DATA_DIR and no SERVER_SECRET each make a secret of their own. The second must
 * refuse to start, saying what to do, rather than start and answer 500 to every request that
 * needs a key the first sealed; given the first's secret, it starts.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('instances that do not share SERVER_SECRET', () => {
  const dataDirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'latchkey-secret-')));
  const children: ChildProcess[] = [];
  let databaseUrl: string;
  let dropDatabase: () => Promise<void> = async () => {};
  let ports: number[];

  beforeAll(async () => {
    const empty = await createEmptyPostgresDatabase(
      process.env.TEST_DATABASE_URL!,
      'latchkey_secret',
    );
    dropDatabase = empty.drop;
    databaseUrl = empty.url;
    const base = await findFreePortBlock();
    ports = [base, base + 1];
  });

  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await dropDatabase();
    for (const dataDir of dataDirs) rmSync(dataDir, { recursive: true, force: true });
  });

  const start = (
    index: number,
    options: { serverSecret?: string; onStderr?: (text: string) => void },
  ) =>
    startRealServer({
      port: ports[index]!,
      dataDir: dataDirs[index]!,
      firebaseProjectId: 'latchkey-secret-test',
      env: { DATABASE_URL: databaseUrl },
      ...options,
    });

  it("refuses to start the second with an error naming SERVER_SECRET, then starts it with the first one's", async () => {
    children.push(await start(0, {}));

    let stderr = '';
    await expect(start(1, { onStderr: (text) => (stderr += text) })).rejects.toThrow(
      `server exited with ${CONFIG_ERROR_EXIT_CODE}`,
    );
    expect(stderr).toContain('SERVER_SECRET does not match the one this database was set up with');
    expect(stderr).toContain('Every instance on one database needs the same SERVER_SECRET');

    const firstSecret = readFileSync(join(dataDirs[0]!, 'server-secret'), 'utf8').trim();
    const second = await start(1, { serverSecret: firstSecret });
    children.push(second);
    expect(second.exitCode).toBeNull();
  }, 120_000);
});
