// A stand-in for the server in the emulator tests: starts an Auth emulator for the given
// state directory, prints its pid, then waits to be killed (which is the point).
import { startAuthEmulator } from '../src/identity/auth-emulator.ts';

const emulator = await startAuthEmulator({
  host: process.env.EMULATOR_HOST!,
  projectId: 'demo-latchkey',
  stateDir: process.env.EMULATOR_STATE_DIR!,
  log: { info: () => {}, warn: () => {} },
});
process.stdout.write(`${JSON.stringify({ pid: emulator.pid })}\n`);
setInterval(() => {}, 60_000);
