import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startAuthEmulator } from '../src/identity/auth-emulator.ts';

/**
 * A real Firebase Auth emulator at `host` for a whole test project, with throwaway state;
 * answers the teardown. Each test uses fresh accounts.
 */
export async function startTestEmulator(host: string) {
  const stateDir = mkdtempSync(join(tmpdir(), 'latchkey-test-emulator-'));
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

/** One emulator for the whole server suite. */
export default function setup() {
  return startTestEmulator(process.env.TEST_AUTH_EMULATOR_HOST ?? '127.0.0.1:9499');
}
