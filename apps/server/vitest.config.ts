import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server',
    environment: 'node',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 90_000,
    env: {
      TEST_AUTH_EMULATOR_HOST: process.env.TEST_AUTH_EMULATOR_HOST ?? '127.0.0.1:9499',
    },
  },
});
