import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startAuthEmulator } from '../src/identity/auth-emulator.ts';
import { writePgliteTemplate } from './pglite-template.ts';

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

/** One emulator and one migrated PGlite template for the whole server suite. */
export default async function setup() {
  const templatePath = process.env.TEST_PGLITE_TEMPLATE;
  const [stopEmulator, removeTemplate] = await Promise.all([
    startTestEmulator(process.env.TEST_AUTH_EMULATOR_HOST ?? '127.0.0.1:9499'),
    // Only PGlite runs use it (TEST_DATABASE_URL makes every test database a PostgreSQL one).
    templatePath && !process.env.TEST_DATABASE_URL ? writePgliteTemplate(templatePath) : () => {},
  ]);
  return async () => {
    removeTemplate();
    await stopEmulator();
  };
}
