import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startAuthEmulator } from '../../apps/server/src/identity/auth-emulator.ts';

/**
 * The samples project's own Firebase Auth emulator. Not the server suite's: when `vitest run`
 * runs every project, each project's global setup runs in the same main process, so the two
 * must not share a host.
 */
export default async function setup() {
  const host = process.env.SAMPLES_AUTH_EMULATOR_HOST!;
  const stateDir = mkdtempSync(join(tmpdir(), 'latchkey-samples-emulator-'));
  const emulator = await startAuthEmulator({
    host,
    projectId: 'demo-latchkey',
    stateDir,
    log: { info: () => {}, warn: (message) => console.warn(message) },
  });
  return async () => {
    await emulator.stop();
    rmSync(stateDir, { recursive: true, force: true });
  };
}
