import { fileURLToPath } from 'node:url';

/**
 * Set to true by the compiled build (scripts/build-server.mjs, an esbuild `define`); never
 * defined when the server runs from source (tsx, tests), hence the typeof guard below.
 */
declare const LATCHKEY_COMPILED_BUILD: boolean | undefined;

const isCompiledBuild = typeof LATCHKEY_COMPILED_BUILD !== 'undefined' && LATCHKEY_COMPILED_BUILD;

/** Files the server reads from disk at run time, as absolute paths. */
export interface ServerAssetPaths {
  /** drizzle-kit's committed SQL and its meta/_journal.json. */
  migrationsFolder: string;
  /** `<language>/<filename>` client sample templates; ends with a slash. */
  samplesDirectory: string;
  /** The built console (the default of CONSOLE_DIST_DIR). */
  consoleDistDirectory: string;
  /** The built client SDK packages served at /sdk/ (the default of SDK_PACKAGES_DIR). */
  sdkPackagesDirectory: string;
  /** Preloaded into the Firebase Auth emulator (development only). */
  exitWithParentPreload: string;
}

const here = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));

/**
 * One place that knows both layouts, because `import.meta.url` means a different file in
 * each: from source this module sits in apps/server/src and the assets where the repository
 * keeps them; in the build every module is bundled into dist/server/main.js and the build
 * copies the assets beside it (the console to dist/console, the SDK packages to dist/sdk).
 */
export const serverAssetPaths: ServerAssetPaths = isCompiledBuild
  ? {
      migrationsFolder: here('./migrations'),
      samplesDirectory: here('./samples/'),
      consoleDistDirectory: here('../console'),
      sdkPackagesDirectory: here('../sdk'),
      exitWithParentPreload: here('./exit-with-parent.cjs'),
    }
  : {
      migrationsFolder: here('./db/migrations'),
      samplesDirectory: here('../../../samples/'),
      consoleDistDirectory: here('../../console/dist'),
      sdkPackagesDirectory: here('../../../sdks/dist'),
      exitWithParentPreload: here('./identity/exit-with-parent.cjs'),
    };
