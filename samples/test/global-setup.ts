import { startTestEmulator } from '../../apps/server/test/global-setup.ts';

/**
 * The samples project's own Firebase Auth emulator. Not the server suite's: when `vitest run`
 * runs every project, each project's global setup runs in the same main process, so the two
 * must not share a host.
 */
export default function setup() {
  return startTestEmulator(process.env.SAMPLES_AUTH_EMULATOR_HOST!);
}
