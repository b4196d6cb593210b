import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 5180);
// A random port block by default (the emulator also takes the next two ports): the server
// would otherwise adopt an emulator some earlier run left on a fixed port. Set once in the
// environment so Playwright's worker processes agree.
process.env.E2E_AUTH_EMULATOR_HOST ??= `127.0.0.1:${20_000 + Math.floor(Math.random() * 10_000) * 3}`;
const emulatorHost = process.env.E2E_AUTH_EMULATOR_HOST;
// A fresh data directory per run, so the first account signed in (the global setup's
// SITE_OWNER) is the site owner. Set once
// in the environment so Playwright's worker processes see the same value.
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'latchkey-e2e-'));

export default defineConfig({
  testDir: './tests',
  // Runs after the web server is up: the first account signed in becomes the site owner.
  globalSetup: './tests/support/site-owner.ts',
  // Files side by side, two at a time: one browser and one server leave most of a second core
  // idle (a spec's wall time was three times its CPU time). Two keep a two-core machine busy:
  // three took longer on one (20.8 min against CI's 14.7-18.3 with two, the cores 98% busy) and
  // failed three tests on their timeouts. Every spec signs in accounts of its own, and reads
  // site-wide lists (user management) by searching for its own names.
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  forbidOnly: process.env.CI === 'true',
  outputDir: join(import.meta.dirname, 'test-results'),
  reporter: [
    ['list'],
    [
      'json',
      {
        outputFile:
          process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ??
          join(import.meta.dirname, 'playwright-report.json'),
      },
    ],
  ],
  use: {
    baseURL: `http://localhost:${port}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      // Chromium's headless shell (Debian's chromium-headless-shell, the build Playwright itself
      // runs headless). The browser is most of what the cores do during the run, and the full
      // browser's headless mode spent a quarter more CPU on the same specs: the whole suite took
      // 953 s with it against 834 s with the shell.
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/lib/chromium/chromium-headless-shell',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  webServer: {
    command: 'node --import tsx apps/server/src/main.ts',
    cwd: join(import.meta.dirname, '..'),
    url: `http://localhost:${port}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    // Without this Playwright SIGKILLs the server, which then cannot stop the Auth emulator
    // it started (a process group of its own), leaving it running after the tests.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 20_000 },
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: process.env.E2E_DATA_DIR,
      FIREBASE_AUTH_EMULATOR_HOST: emulatorHost,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'development',
      // A failed webhook delivery waits ten minutes for its next try, so the webhooks spec sees
      // it pending and sends it again with the log's Retry button rather than by the schedule.
      WEBHOOK_RETRY_DELAYS_SECONDS: '600',
      // The specs' vendors run their own environments in full, samples included; the
      // user-management spec grants and withdraws permissions itself.
      DEFAULT_ACCOUNT_PERMISSIONS: 'manage_applications,delete_applications,edit_code',
    },
  },
});
