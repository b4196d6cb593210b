import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { emulatorGoogleIdToken, newGoogleAccount } from '../../test/emulator-accounts.ts';
import { findFreePortBlock } from '../../test/free-port-block.ts';
import {
  isAuthEmulatorReady,
  startAuthEmulator,
  type RunningAuthEmulator,
} from './auth-emulator.ts';
import { isProcessRunning, readEmulatorRecord } from './emulator-record.ts';

const quiet = { info: () => {}, warn: () => {} };

async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await sleep(100);
  }
  return condition();
}

/** Starts an emulator from a separate "server" process and reports the emulator's pid. */
async function startEmulatorInAnotherServer(host: string, stateDir: string) {
  const server = spawn(
    process.execPath,
    ['--import', 'tsx', new URL('../../test/emulator-parent.ts', import.meta.url).pathname],
    {
      env: { ...process.env, EMULATOR_HOST: host, EMULATOR_STATE_DIR: stateDir },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: server.stdout! });
  for await (const line of lines) {
    return { server, emulatorPid: (JSON.parse(line) as { pid: number }).pid };
  }
  throw new Error('the stand-in server exited before its emulator was ready');
}

// One sequence on one port and state directory, each step building on the last: every
// emulator start costs about 12 s, so the file starts three.
describe('the Auth emulator is never orphaned nor adopted', () => {
  const stateDir = mkdtempSync(join(tmpdir(), 'latchkey-emulator-orphan-'));
  const account = newGoogleAccount();
  let host = '';
  let uid = '';
  let leftRunning: RunningAuthEmulator | undefined;
  let current: RunningAuthEmulator | undefined;
  let standInServer: ChildProcess | undefined;
  const emulatorPids: number[] = [];

  afterAll(async () => {
    standInServer?.kill('SIGKILL');
    await current?.stop();
    // Whatever a failed step left running (each emulator leads its own process group).
    for (const pid of emulatorPids.filter(isProcessRunning)) process.kill(-pid, 'SIGKILL');
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('stops by itself, exporting its accounts, when the server that started it is killed', async () => {
    host = `127.0.0.1:${await findFreePortBlock()}`;
    const { server, emulatorPid } = await startEmulatorInAnotherServer(host, stateDir);
    standInServer = server;
    emulatorPids.push(emulatorPid);
    uid = (await emulatorGoogleIdToken(account, host)).uid;

    server.kill('SIGKILL');
    expect(await waitUntil(() => !isProcessRunning(emulatorPid), 30_000)).toBe(true);
    expect(await isAuthEmulatorReady(host)).toBe(false);

    // The next start serves the same people: the orphan exported before it went.
    leftRunning = await startAuthEmulator({
      host,
      projectId: 'demo-latchkey',
      stateDir,
      log: quiet,
    });
    emulatorPids.push(leftRunning.pid);
    expect((await emulatorGoogleIdToken(account, host)).uid).toBe(uid);
  }, 120_000);

  it('replaces an emulator an earlier start for this DATA_DIR left running, instead of adopting it', async () => {
    // leftRunning's handle is dropped, as when the server that held it was killed and its
    // emulator lingered: the next start must find it through the record and replace it.
    const stale = leftRunning!;
    const warnings: string[] = [];
    current = await startAuthEmulator({
      host,
      projectId: 'demo-latchkey',
      stateDir,
      log: { info: () => {}, warn: (message) => warnings.push(message) },
    });
    emulatorPids.push(current.pid);
    expect(isProcessRunning(stale.pid)).toBe(false);
    expect(current.pid).not.toBe(stale.pid);
    expect(readEmulatorRecord(stateDir)?.pid).toBe(current.pid);
    expect(warnings.join('\n')).toContain(`pid ${stale.pid}`);
    expect((await emulatorGoogleIdToken(account, host)).uid).toBe(uid);
  }, 120_000);

  it('refuses to start beside an emulator it did not start for this DATA_DIR', async () => {
    const otherDataDir = mkdtempSync(join(tmpdir(), 'latchkey-emulator-other-'));
    const port = host.split(':')[1];
    await expect(
      startAuthEmulator({ host, projectId: 'demo-latchkey', stateDir: otherDataDir, log: quiet }),
    ).rejects.toThrow(
      new RegExp(`Port ${port} .*already in use.*FIREBASE_AUTH_EMULATOR_HOST`, 's'),
    );
    // ...and the one running for this DATA_DIR was left alone.
    expect(isProcessRunning(current!.pid)).toBe(true);
    expect(await isAuthEmulatorReady(host)).toBe(true);
    rmSync(otherDataDir, { recursive: true, force: true });
  });

  it('refuses a port held by anything else', async () => {
    const freePort = await findFreePortBlock();
    const squatter = createServer().listen(freePort, '127.0.0.1');
    await new Promise((resolve) => squatter.once('listening', resolve));
    try {
      const freshDir = mkdtempSync(join(tmpdir(), 'latchkey-emulator-squatted-'));
      await expect(
        startAuthEmulator({
          host: `127.0.0.1:${freePort}`,
          projectId: 'demo-latchkey',
          stateDir: freshDir,
          log: quiet,
        }),
      ).rejects.toThrow(`Port ${freePort} `);
      rmSync(freshDir, { recursive: true, force: true });
    } finally {
      squatter.close();
    }
  });
});
