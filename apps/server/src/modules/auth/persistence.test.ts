import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/client.ts';
import { startAuthEmulator } from '../../identity/auth-emulator.ts';
import { emulatorGoogleIdToken, newGoogleAccount } from '../../../test/emulator-accounts.ts';
import { findFreePortBlock } from '../../../test/free-port-block.ts';
import { createTestApp, signInOwner } from '../../../test/test-app.ts';

describe('the same Google account is the same owner after a restart', () => {
  it('keeps owners in the PGlite data directory across restarts', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'latchkey-pglite-'));
    const account = newGoogleAccount();
    const firstRun = await openDatabase({ kind: 'pglite', dataDir });
    const first = await createTestApp({ database: firstRun });
    const before = await signInOwner(first.app, account);
    await first.close();
    await firstRun.close();

    const secondRun = await openDatabase({ kind: 'pglite', dataDir });
    // The restarted server keeps its secret (npm start reads it from DATA_DIR).
    const second = await createTestApp({
      database: secondRun,
      env: { SERVER_SECRET: first.config.serverSecret },
    });
    const after = await signInOwner(second.app, account);
    await second.close();
    await secondRun.close();
    expect(after.accountId).toBe(before.accountId);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps emulator accounts (and so their uid) across an emulator restart', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'latchkey-emulator-state-'));
    // A port of its own (the emulator also takes the next two): reusing a running emulator
    // would make this test pass or fail for reasons unrelated to persistence.
    const host = `127.0.0.1:${await findFreePortBlock()}`;
    const quiet = { info: () => {}, warn: () => {} };
    const account = newGoogleAccount();

    const firstEmulator = await startAuthEmulator({
      host,
      projectId: 'demo-latchkey',
      stateDir,
      log: quiet,
    });
    const before = await emulatorGoogleIdToken(account, host);
    await firstEmulator.stop();

    const secondEmulator = await startAuthEmulator({
      host,
      projectId: 'demo-latchkey',
      stateDir,
      log: quiet,
    });
    const after = await emulatorGoogleIdToken(account, host);
    await secondEmulator.stop();
    expect(after.uid).toBe(before.uid);
    rmSync(stateDir, { recursive: true, force: true });
  }, 120_000);
});
