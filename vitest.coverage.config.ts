import { defineConfig } from 'vitest/config';

/**
 * `npm run test:coverage` (scripts/test-coverage.mjs): the server and console suites, measured.
 * The samples are left out: they drive compiled programs against a server, and measure the
 * programs, not our code. Run it without `--project`: with one, Vitest looks for `include`'s
 * files under that project's folder instead of here, and never-loaded files drop out again.
 */
export default defineConfig({
  test: {
    projects: ['apps/server', 'apps/console'],
    coverage: {
      enabled: true,
      provider: 'v8',
      // Every source file is counted, loaded by a test or not. With only the files some test
      // happens to import (Vitest's default), a page no test renders is missing from the total
      // instead of counting at 0%.
      include: [
        'apps/server/src/**/*.ts',
        'apps/console/src/**/*.{ts,tsx}',
        'packages/contracts/src/**/*.ts',
      ],
      exclude: [
        // The tests and the console's test setup are what measures, not what is measured.
        // (The server's helpers live in apps/server/test/, outside `include`.)
        '**/*.test.{ts,tsx}',
        'apps/console/src/test/**',
        // Declarations only: nothing in them runs.
        '**/*.d.ts',
      ],
      // Per file and in total; the script sums it per project.
      reporter: ['json-summary'],
      // Other engineers' work in progress can fail a test or two in a shared tree: the figures
      // are still written, and the script says they come from a failing run.
      reportOnFailure: true,
      reportsDirectory: '.test-results/coverage',
    },
  },
});
