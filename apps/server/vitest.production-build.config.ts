import { defineConfig } from 'vitest/config';

// The production-build test on its own: it builds, installs from the npm cache and starts the
// compiled server on PostgreSQL (minutes, not seconds), so `npm test` runs it as a step of its
// own rather than as part of the server project.
export default defineConfig({
  test: {
    name: 'production-build',
    root: import.meta.dirname,
    environment: 'node',
    include: ['test/production-build.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 240_000,
  },
});
