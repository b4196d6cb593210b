import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startAuthEmulator } from '../src/identity/auth-emulator.ts';

/** One real Firebase Auth emulator for the whole server suite; each test uses fresh accounts. */
export default async function setup() {
  const host = process.env.TEST_AUTH_EMULATOR_HOST ?? '127.0.0.1:9499';
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
