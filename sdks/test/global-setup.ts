import { startTestEmulator } from '../../apps/server/test/global-setup.ts';

/** The sdks project's own Firebase Auth emulator, apart from the other projects' ones. */
export default function setup() {
  return startTestEmulator(process.env.SDKS_AUTH_EMULATOR_HOST!);
}
