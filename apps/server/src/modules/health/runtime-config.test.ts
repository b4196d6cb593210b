import { randomBytes } from 'node:crypto';
import { runtimeConfigSchema } from '@latchkey/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/test-database.ts';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import type { IdentityVerifier } from '../../identity/identity-verifier.ts';
import { temporaryDirectoryForTest } from '../../../test/temporary-directory.ts';

/**
 * The console offers "Sign in with a test account" exactly when GET /api/config names an Auth
 * emulator. That sign-in uses an unsigned token, so the answer must never name one where a real
 * Firebase project is in use: in production above all.
 */

const realProject = {
  FIREBASE_PROJECT_ID: 'acme-prod',
  FIREBASE_API_KEY: 'AIza-runtime-config-test',
  FIREBASE_AUTH_DOMAIN: 'acme-prod.firebaseapp.com',
};
// One secret for every app built here: they share one database, which remembers the first.
const serverSecret = randomBytes(48).toString('base64');
const production = {
  NODE_ENV: 'production',
  PUBLIC_ORIGIN: 'https://latchkey.example.com',
  ...realProject,
};

// A real project's tokens are never verified here; the stand-in keeps firebase-admin (and the
// FIREBASE_AUTH_EMULATOR_HOST it reads from the process environment) out of this test.
const unusedIdentity: IdentityVerifier = {
  mode: 'firebase',
  verifyIdToken: () => Promise.reject(new Error('not used by this test')),
  close: async () => {},
};

describe('GET /api/config and the Auth emulator', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  async function runtimeConfigServedWith(environment: Record<string, string>) {
    const config = loadConfig({
      LOG_LEVEL: 'silent',
      DATA_DIR: temporaryDirectoryForTest('latchkey-runtime-config-'),
      SERVE_CONSOLE: 'false',
      SERVER_SECRET: serverSecret,
      ...environment,
    });
    const app = await buildApp({
      config,
      database,
      identity: unusedIdentity,
      isRetentionSweepEnabled: false,
      isWebhookDispatcherEnabled: false,
    });
    try {
      const response = await app.inject({ url: '/api/config' });
      expect(response.statusCode).toBe(200);
      return runtimeConfigSchema.parse(response.json());
    } finally {
      await app.close();
    }
  }

  it('names no emulator in production', async () => {
    const runtimeConfig = await runtimeConfigServedWith(production);
    expect(runtimeConfig.authEmulatorUrl).toBeNull();
    expect(runtimeConfig.firebase).toEqual({
      apiKey: 'AIza-runtime-config-test',
      authDomain: 'acme-prod.firebaseapp.com',
      projectId: 'acme-prod',
    });
  });

  it('names no emulator for a real Firebase project outside production either', async () => {
    for (const nodeEnvironment of ['development', 'test']) {
      const runtimeConfig = await runtimeConfigServedWith({
        NODE_ENV: nodeEnvironment,
        ...realProject,
      });
      expect(runtimeConfig.authEmulatorUrl, nodeEnvironment).toBeNull();
    }
  });

  it('has no production server that could name one: FIREBASE_AUTH_EMULATOR_HOST stops it', async () => {
    await expect(
      runtimeConfigServedWith({ ...production, FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' }),
    ).rejects.toThrow('FIREBASE_AUTH_EMULATOR_HOST must not be set in production');
  });

  it('names the emulator for the embedded default (a demo- project, outside production)', async () => {
    const runtimeConfig = await runtimeConfigServedWith({
      NODE_ENV: 'development',
      FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9199',
    });
    expect(runtimeConfig.authEmulatorUrl).toBe('http://127.0.0.1:9199');
  });
});
