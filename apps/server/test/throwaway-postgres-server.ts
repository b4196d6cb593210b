import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { findFreePortBlock } from './free-port-block.ts';

/**
 * A PostgreSQL server of a test's own (initdb in a temporary folder, on a free port), for the
 * tests that stop and restart the database under a running server: the suite's shared
 * PostgreSQL serves other test files at the same time and must never be restarted. As root
 * (CI), the server runs as the `postgres` user, which initdb requires.
 */
export interface ThrowawayPostgresServer {
  /** A superuser URL of the `postgres` database. */
  url: string;
  /** Stops the server (fast shutdown: connections are terminated) and starts it again. */
  restart(options?: { downForMs?: number }): Promise<void>;
  stop(): Promise<void>;
}

/** The folder of initdb and postgres, from Debian's packages; null when none is installed. */
export function findPostgresBinaries(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((version) => existsSync(join(root, version, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : null;
}

export async function startThrowawayPostgresServer(): Promise<ThrowawayPostgresServer> {
  const binaries = findPostgresBinaries();
  if (!binaries) throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql');
  const dataDir = mkdtempSync(join(tmpdir(), 'latchkey-throwaway-pg-'));
  const isRoot = process.getuid?.() === 0;
  if (isRoot) {
    const ids = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const groups = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    chownSync(dataDir, Number(ids.stdout.trim()), Number(groups.stdout.trim()));
  }
  // setpriv execs the command itself (runuser would stay its parent), so signals reach postgres.
  const asServerUser = (command: string, args: string[]) =>
    isRoot
      ? {
          command: 'setpriv',
          args: ['--reuid=postgres', '--regid=postgres', '--init-groups', '--', command, ...args],
        }
      : { command, args };

  const pgData = join(dataDir, 'data');
  const init = asServerUser(join(binaries, 'initdb'), [
    '-D',
    pgData,
    '-U',
    'postgres',
    '--auth=trust',
    '--no-sync',
  ]);
  const initialised = spawnSync(init.command, init.args, { encoding: 'utf8' });
  if (initialised.status !== 0) {
    throw new Error(`initdb failed: ${initialised.stderr || initialised.stdout}`);
  }
  const port = await findFreePortBlock();
  let server: ChildProcess | null = null;

  const start = async () => {
    const run = asServerUser(join(binaries, 'postgres'), [
      '-D',
      pgData,
      '-p',
      String(port),
      '-k',
      dataDir,
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'fsync=off',
    ]);
    const child = spawn(run.command, run.args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let output = '';
    child.stderr?.setEncoding('utf8').on('data', (text: string) => {
      output = (output + text).slice(-4000);
    });
    server = child;
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`postgres exited: ${output}`);
      const client = new pg.Client({ connectionString: url });
      client.on('error', () => undefined);
      try {
        await client.connect();
        await client.end();
        return;
      } catch {
        await client.end().catch(() => undefined);
        await sleep(50);
      }
    }
    throw new Error(`postgres did not start: ${output}`);
  };

  const stop = async () => {
    const child = server;
    server = null;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    // SIGINT is PostgreSQL's fast shutdown: every backend terminated, as in a failover.
    child.kill('SIGINT');
    await exited;
  };

  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  await start();
  return {
    url,
    restart: async ({ downForMs = 0 } = {}) => {
      await stop();
      if (downForMs > 0) await sleep(downForMs);
      await start();
    },
    stop: async () => {
      await stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
