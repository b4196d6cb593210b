import { defineProject } from 'vitest/config';

// The sample tests compile and drive real programs against a live server, and run once (on
// PGlite), not per database. Their emulator is their own, on a random port block of its own:
// the server project's global setup runs in the same process and starts one too.
process.env.SAMPLES_AUTH_EMULATOR_HOST ??= `127.0.0.1:${50_000 + Math.floor(Math.random() * 3_000) * 3}`;

export default defineProject({
  test: {
    name: 'samples',
    environment: 'node',
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    env: {
      // What the server's test helpers (createTestApp) read in the workers.
      TEST_AUTH_EMULATOR_HOST: process.env.SAMPLES_AUTH_EMULATOR_HOST,
    },
  },
});
