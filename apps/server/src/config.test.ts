import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const dataDir = () => mkdtempSync(join(tmpdir(), 'latchkey-config-'));
const realFirebase = {
  FIREBASE_PROJECT_ID: 'acme-prod',
  FIREBASE_API_KEY: 'AIza-test',
  FIREBASE_AUTH_DOMAIN: 'acme-prod.firebaseapp.com',
};

describe('loadConfig', () => {
  it('defaults to PGlite under DATA_DIR and the emulator for the demo project', () => {
    const config = loadConfig({ DATA_DIR: dataDir() });
    expect(config.port).toBe(5000);
    expect(config.database.kind).toBe('pglite');
    expect(config.identity.projectId).toBe('demo-latchkey');
    expect(config.identity.emulatorHost).toBe('127.0.0.1:9099');
  });

  it('switches to PostgreSQL with DATABASE_URL', () => {
    const config = loadConfig({ DATA_DIR: dataDir(), DATABASE_URL: 'postgres://u:p@localhost/db' });
    expect(config.database).toMatchObject({ kind: 'postgres', url: 'postgres://u:p@localhost/db' });
  });

  it('keeps failed-login counters in the database unless REDIS_URL names a Redis', () => {
    const defaults = loadConfig({ DATA_DIR: dataDir() });
    expect(defaults.redisUrl).toBeNull();
    expect(defaults.clientApi).toMatchObject({
      loginFailureLimit: 10,
      loginUsernameFailureLimit: 50,
      loginIpFailureLimit: 100,
      loginFailureWindowMs: 15 * 60_000,
    });
    const configured = loadConfig({
      DATA_DIR: dataDir(),
      REDIS_URL: 'redis://cache.internal:6379/2',
      LOGIN_USERNAME_FAILURE_LIMIT: '20',
      LOGIN_IP_FAILURE_LIMIT: '300',
    });
    expect(configured.redisUrl).toBe('redis://cache.internal:6379/2');
    expect(configured.clientApi).toMatchObject({
      loginUsernameFailureLimit: 20,
      loginIpFailureLimit: 300,
    });
    expect(() => loadConfig({ DATA_DIR: dataDir(), REDIS_URL: 'cache.internal:6379' })).toThrow(
      /REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/,
    );
  });

  it('refuses the emulator in production', () => {
    expect(() =>
      loadConfig({
        NODE_ENV: 'production',
        SERVER_SECRET: 'x'.repeat(40),
        FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099',
        ...realFirebase,
      }),
    ).toThrow(ConfigError);
  });

  it('refuses a demo project and a missing secret in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', SERVER_SECRET: 'x'.repeat(40) })).toThrow(
      /real Firebase project/,
    );
    expect(() => loadConfig({ NODE_ENV: 'production', ...realFirebase })).toThrow(/SERVER_SECRET/);
  });

  it('uses a real Firebase project without the emulator in production', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      SERVER_SECRET: 'x'.repeat(40),
      ...realFirebase,
    });
    expect(config.identity.emulatorHost).toBeNull();
    expect(config.identity.webConfig.authDomain).toBe('acme-prod.firebaseapp.com');
  });

  it('generates a local server secret once and keeps it', () => {
    const dir = dataDir();
    const first = loadConfig({ DATA_DIR: dir }).serverSecret;
    expect(first.length).toBeGreaterThanOrEqual(40);
    expect(loadConfig({ DATA_DIR: dir }).serverSecret).toBe(first);
  });

  it('explains every invalid variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x' })).toThrow(
      /PORT[\s\S]*DATABASE_URL/,
    );
  });
});
