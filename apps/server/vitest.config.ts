import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configDefaults, defineProject } from 'vitest/config';

// A random port block by default (the emulator also takes the next two ports), so a leftover
// emulator on a fixed port is never adopted by mistake. Set here, once, in the main process:
// the global setup and every worker read the same value.
process.env.TEST_AUTH_EMULATOR_HOST ??= `127.0.0.1:${20_000 + Math.floor(Math.random() * 10_000) * 3}`;
// Where the global setup dumps the migrated PGlite template (test/pglite-template.ts); one
// file per run, so two runs side by side never share one.
process.env.TEST_PGLITE_TEMPLATE ??= join(
  tmpdir(),
  `latchkey-pglite-template-${process.pid}-${Date.now()}.tar`,
);

export default defineProject({
  test: {
    name: 'server',
    environment: 'node',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Run alone by vitest.production-build.config.ts (it builds and installs).
    exclude: [...configDefaults.exclude, 'test/production-build.test.ts'],
    // The files of a worker share one module graph instead of importing the server afresh
    // each (1.3 s a file). In one sitting on two cores: the server's 161 files on PostgreSQL
    // took 346 s instead of 631 s, and the whole PGlite run 819 s instead of 1,062 s.
    // Every app, database and Redis a test starts is its own, so no state of the server's
    // modules carries from file to file; a file must not mock modules or stub globals (the
    // lint forbids it here), which would leak into the files after it.
    isolate: false,
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/assert-response-contracts.ts'],
    testTimeout: 30_000,
    hookTimeout: 90_000,
    env: {
      TEST_AUTH_EMULATOR_HOST: process.env.TEST_AUTH_EMULATOR_HOST,
      TEST_PGLITE_TEMPLATE: process.env.TEST_PGLITE_TEMPLATE,
    },
  },
});
