import { defineProject } from 'vitest/config';

// The sample tests compile and drive real programs against a live server: they share the
// server suite's Firebase Auth emulator set-up, and run once (on PGlite), not per database.
process.env.TEST_AUTH_EMULATOR_HOST ??= `127.0.0.1:${20_000 + Math.floor(Math.random() * 10_000) * 3}`;

export default defineProject({
  test: {
    name: 'samples',
    environment: 'node',
    include: ['test/**/*.test.ts'],
    globalSetup: ['../apps/server/test/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    env: {
      TEST_AUTH_EMULATOR_HOST: process.env.TEST_AUTH_EMULATOR_HOST,
    },
  },
});
