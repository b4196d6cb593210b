import { defineProject } from 'vitest/config';

// The SDKs' conformance runs build, pack and install each package and drive it against a live
// server, once (on PGlite), not per database. Their emulator is their own, on a random port
// block of its own: every project's global setup runs in the same process when `vitest run`
// runs them all.
process.env.SDKS_AUTH_EMULATOR_HOST ??= `127.0.0.1:${59_000 + Math.floor(Math.random() * 2_000) * 3}`;

export default defineProject({
  test: {
    name: 'sdks',
    environment: 'node',
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    env: {
      // What the server's test helpers (createTestApp) read in the workers.
      TEST_AUTH_EMULATOR_HOST: process.env.SDKS_AUTH_EMULATOR_HOST,
    },
  },
});
