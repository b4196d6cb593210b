import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError, describeMode, loadConfig } from './config.ts';
import { temporaryDirectoryForTest } from '../test/temporary-directory.ts';

const dataDir = () => temporaryDirectoryForTest('latchkey-config-');
const realFirebase = {
  FIREBASE_PROJECT_ID: 'acme-prod',
  FIREBASE_API_KEY: 'AIza-test',
  FIREBASE_AUTH_DOMAIN: 'acme-prod.firebaseapp.com',
};
/** Everything production needs besides the variable a test is about. */
const production = {
  NODE_ENV: 'production',
  SERVER_SECRET: randomBytes(48).toString('base64'),
  PUBLIC_ORIGIN: 'https://latchkey.example.com',
  ...realFirebase,
};

describe('loadConfig', () => {
  it('defaults to PGlite under DATA_DIR and the emulator for the demo project', () => {
    const config = loadConfig({ DATA_DIR: dataDir() });
    expect(config.port).toBe(5000);
    expect(config.database.kind).toBe('pglite');
    expect(config.identity.projectId).toBe('demo-latchkey');
    expect(config.identity.emulatorHost).toBe('127.0.0.1:9099');
  });

  it('gives new accounts the configured permissions, refusing unknown ids', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).defaultAccountPermissions).toEqual([
      'manage_applications',
      'delete_applications',
    ]);
    expect(
      loadConfig({ DATA_DIR: dataDir(), DEFAULT_ACCOUNT_PERMISSIONS: ' edit_code , edit_code,' })
        .defaultAccountPermissions,
    ).toEqual(['edit_code']);
    expect(
      loadConfig({ DATA_DIR: dataDir(), DEFAULT_ACCOUNT_PERMISSIONS: '' })
        .defaultAccountPermissions,
    ).toEqual([]);
    expect(() =>
      loadConfig({ DATA_DIR: dataDir(), DEFAULT_ACCOUNT_PERMISSIONS: 'manage_applications,root' }),
    ).toThrow(/unknown permission "root"/);
  });

  it('switches to PostgreSQL with DATABASE_URL', () => {
    const config = loadConfig({ DATA_DIR: dataDir(), DATABASE_URL: 'postgres://u:p@localhost/db' });
    expect(config.database).toMatchObject({ kind: 'postgres', url: 'postgres://u:p@localhost/db' });
  });

  it('runs several workers only on PostgreSQL (PGlite belongs to one process)', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).webConcurrency).toBe(1);
    expect(() => loadConfig({ DATA_DIR: dataDir(), WEB_CONCURRENCY: '2' })).toThrow(
      /WEB_CONCURRENCY above 1 needs DATABASE_URL/,
    );
    const config = loadConfig({
      DATA_DIR: dataDir(),
      DATABASE_URL: 'postgres://u:p@localhost/db',
      WEB_CONCURRENCY: '4',
    });
    expect(config.webConcurrency).toBe(4);
  });

  it('puts the client API on a port of its own only on PostgreSQL, and never on PORT', () => {
    const postgres = { DATA_DIR: dataDir(), DATABASE_URL: 'postgres://u:p@localhost/db' };
    expect(loadConfig(postgres).clientApiListener).toBeNull();
    expect(loadConfig({ ...postgres, CLIENT_API_PORT: '' }).clientApiListener).toBeNull();
    expect(loadConfig({ ...postgres, CLIENT_API_PORT: '5001' }).clientApiListener).toEqual({
      port: 5001,
      workers: 1,
      consoleNiceness: 10,
      consoleCpus: null,
    });
    expect(
      loadConfig({
        ...postgres,
        CLIENT_API_PORT: '5001',
        CLIENT_API_WORKERS: '3',
        CONSOLE_WORKER_NICENESS: '0',
        CONSOLE_WORKER_CPUS: '1,3-5',
      }).clientApiListener,
    ).toEqual({ port: 5001, workers: 3, consoleNiceness: 0, consoleCpus: '1,3-5' });
    expect(() => loadConfig({ DATA_DIR: dataDir(), CLIENT_API_PORT: '5001' })).toThrow(
      /CLIENT_API_PORT needs DATABASE_URL/,
    );
    expect(() => loadConfig({ ...postgres, PORT: '5001', CLIENT_API_PORT: '5001' })).toThrow(
      /CLIENT_API_PORT must differ from PORT/,
    );
    expect(() =>
      loadConfig({ ...postgres, METRICS_PORT: '9100', CLIENT_API_PORT: '9100' }),
    ).toThrow(/METRICS_PORT must differ from CLIENT_API_PORT/);
    expect(() => loadConfig({ ...postgres, CONSOLE_WORKER_NICENESS: '20' })).toThrow(
      /CONSOLE_WORKER_NICENESS/,
    );
    for (const cpus of ['1-', 'one', '1;2', '-1']) {
      expect(() => loadConfig({ ...postgres, CONSOLE_WORKER_CPUS: cpus }), cpus).toThrow(
        /CONSOLE_WORKER_CPUS/,
      );
    }
  });

  it('answers verify and heartbeat on the lean path unless CLIENT_API_LEAN_PATH=false', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).clientApi.isLeanPathEnabled).toBe(true);
    expect(
      loadConfig({ DATA_DIR: dataDir(), CLIENT_API_LEAN_PATH: 'false' }).clientApi
        .isLeanPathEnabled,
    ).toBe(false);
  });

  it('reads the webhook retry schedule as a comma list of seconds, and refuses anything else', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).webhooks).toEqual({
      allowPrivateNetworks: false,
      pollIntervalMs: 1000,
      retryDelaysMs: [5, 300, 1800, 7200, 18000, 36000, 36000].map((seconds) => seconds * 1000),
    });
    const short = loadConfig({
      DATA_DIR: dataDir(),
      WEBHOOK_RETRY_DELAYS_SECONDS: ' 1, 2 ,3',
      WEBHOOK_POLL_INTERVAL_MS: '50',
    });
    expect(short.webhooks).toEqual({
      allowPrivateNetworks: false,
      pollIntervalMs: 50,
      retryDelaysMs: [1000, 2000, 3000],
    });
    for (const bad of ['', '1,,2', '1.5', '-1', 'soon']) {
      expect(() => loadConfig({ DATA_DIR: dataDir(), WEBHOOK_RETRY_DELAYS_SECONDS: bad })).toThrow(
        /WEBHOOK_RETRY_DELAYS_SECONDS/,
      );
    }
  });

  it('turns metrics on with METRICS_PORT or METRICS_TOKEN, and off (blank too) without', () => {
    const off = { port: null, host: '127.0.0.1', token: null };
    expect(loadConfig({ DATA_DIR: dataDir() }).metrics).toEqual(off);
    expect(
      loadConfig({ DATA_DIR: dataDir(), METRICS_PORT: '', METRICS_TOKEN: '', METRICS_HOST: '' })
        .metrics,
    ).toEqual(off);
    expect(
      loadConfig({ DATA_DIR: dataDir(), METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' }).metrics,
    ).toEqual({ port: 9464, host: '0.0.0.0', token: null });
    const token = 'a'.repeat(16);
    expect(loadConfig({ DATA_DIR: dataDir(), METRICS_TOKEN: token }).metrics.token).toBe(token);
    expect(() => loadConfig({ DATA_DIR: dataDir(), METRICS_TOKEN: 'a'.repeat(15) })).toThrow(
      /METRICS_TOKEN must be 16 to 512 visible ASCII characters/,
    );
    expect(() => loadConfig({ DATA_DIR: dataDir(), METRICS_TOKEN: `${token} x` })).toThrow(
      /METRICS_TOKEN/,
    );
    expect(() => loadConfig({ DATA_DIR: dataDir(), METRICS_PORT: '5000' })).toThrow(
      /METRICS_PORT must differ from PORT/,
    );
    expect(() => loadConfig({ DATA_DIR: dataDir(), METRICS_PORT: '70000' })).toThrow(
      /METRICS_PORT/,
    );
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

  it('counts refused licence keys per address, range and key; the application only slows', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).clientApi).toMatchObject({
      licenseIpFailureLimit: 20,
      licenseRangeFailureLimit: 100,
      licenseKeyFailureLimit: 10,
      licenseAppFailureLimit: 200,
      licenseFailureDelayMs: 1000,
    });
    const configured = loadConfig({
      DATA_DIR: dataDir(),
      LICENSE_FAILURES_PER_RANGE: '500',
      LICENSE_FAILURES_PER_KEY: '3',
      LICENSE_FAILURE_DELAY_MS: '0',
    });
    expect(configured.clientApi).toMatchObject({
      licenseRangeFailureLimit: 500,
      licenseKeyFailureLimit: 3,
      licenseFailureDelayMs: 0,
    });
    expect(() => loadConfig({ DATA_DIR: dataDir(), LICENSE_FAILURES_PER_KEY: '0' })).toThrow(
      /LICENSE_FAILURES_PER_KEY/,
    );
    expect(() => loadConfig({ DATA_DIR: dataDir(), LICENSE_FAILURE_DELAY_MS: '60000' })).toThrow(
      /LICENSE_FAILURE_DELAY_MS/,
    );
  });

  it('refuses the emulator in production', () => {
    expect(() =>
      loadConfig({
        ...production,
        FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099',
      }),
    ).toThrow(ConfigError);
  });

  it('refuses a demo project and a missing secret in production', () => {
    expect(() => loadConfig({ ...production, FIREBASE_PROJECT_ID: 'demo-latchkey' })).toThrow(
      /real Firebase project/,
    );
    const { SERVER_SECRET: _secret, ...withoutSecret } = production;
    expect(() => loadConfig(withoutSecret)).toThrow(/SERVER_SECRET/);
  });

  it('uses a real Firebase project without the emulator in production', () => {
    const config = loadConfig(production);
    expect(config.identity.emulatorHost).toBeNull();
    expect(config.publicOrigin).toBe('https://latchkey.example.com');
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

  it('refuses an http:// PUBLIC_ORIGIN in production, except a loopback one', () => {
    for (const origin of [
      'http://latchkey.example.com',
      'http://10.0.0.5:5000',
      'ftp://x.example',
    ]) {
      expect(() => loadConfig({ ...production, PUBLIC_ORIGIN: origin })).toThrow(
        /PUBLIC_ORIGIN must be an https:\/\/ origin in production/,
      );
    }
    for (const origin of [
      'https://latchkey.example.com',
      'http://localhost:5000',
      'http://127.0.0.1:8080',
      'http://[::1]:5000',
    ]) {
      expect(loadConfig({ ...production, PUBLIC_ORIGIN: origin }).publicOrigin).toBe(
        new URL(origin).origin,
      );
    }
    // Outside production any origin is accepted, as before.
    expect(
      loadConfig({ DATA_DIR: dataDir(), PUBLIC_ORIGIN: 'http://latchkey.example.com' })
        .publicOrigin,
    ).toBe('http://latchkey.example.com');
  });

  it('refuses production without PUBLIC_ORIGIN', () => {
    const { PUBLIC_ORIGIN: _origin, ...withoutOrigin } = production;
    expect(() => loadConfig(withoutOrigin)).toThrow(ConfigError);
    expect(() => loadConfig(withoutOrigin)).toThrow(/PUBLIC_ORIGIN is required in production/);
    // Outside production the request's own origin stays the default.
    expect(loadConfig({ DATA_DIR: dataDir() }).publicOrigin).toBeNull();
  });

  it.each(['development', 'test', undefined])(
    'refuses the emulator beside a real Firebase project (NODE_ENV %s)',
    (nodeEnv) => {
      expect(() =>
        loadConfig({
          ...(nodeEnv ? { NODE_ENV: nodeEnv } : {}),
          DATA_DIR: dataDir(),
          FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099',
          ...realFirebase,
        }),
      ).toThrow(/FIREBASE_AUTH_EMULATOR_HOST is set for the real Firebase project "acme-prod"/);
    },
  );

  it('still lets a demo- project choose its emulator host outside production', () => {
    const config = loadConfig({
      DATA_DIR: dataDir(),
      FIREBASE_PROJECT_ID: 'demo-other',
      FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9199',
    });
    expect(config.identity.emulatorHost).toBe('127.0.0.1:9199');
  });

  it.each([
    ['41 × a', 'a'.repeat(41)],
    ['a repeated short pattern', 'abc'.repeat(14)],
    ['a run of letters and digits', 'abcdefghijklmnopqrstuvwxyz0123456789'],
    ['a tiny alphabet', '0110100110010110'.repeat(4)],
    ['a repeated phrase', 'hunter2-hunter2-hunter2-hunter2-hunter2'],
  ])('refuses a predictable SERVER_SECRET in production: %s', (_name, secret) => {
    expect(secret.length).toBeGreaterThanOrEqual(32);
    expect(() => loadConfig({ ...production, SERVER_SECRET: secret })).toThrow(/too predictable/);
  });

  it('accepts generated secrets in production: openssl rand -base64 48 and -hex 32', () => {
    // Many draws, so a rule that rejects a random secret now and then cannot hide.
    for (let draw = 0; draw < 500; draw += 1) {
      for (const secret of [randomBytes(48).toString('base64'), randomBytes(32).toString('hex')]) {
        expect(() => loadConfig({ ...production, SERVER_SECRET: secret })).not.toThrow();
      }
    }
  });

  it('says which mode is running, without the database password', () => {
    const local = describeMode(loadConfig({ DATA_DIR: '/srv/latchkey', SERVE_CONSOLE: 'false' }));
    expect(local).toBe(
      "NODE_ENV=development; database: PGlite at /srv/latchkey/pglite; identity: Firebase Auth emulator at 127.0.0.1:9099 (project demo-latchkey); public origin: each request's own origin (PUBLIC_ORIGIN unset); console: not served",
    );
    const deployed = describeMode(
      loadConfig({
        ...production,
        DATABASE_URL: 'postgres://latchkey:s3cret-pw@db.internal:5432/latchkey',
        CONSOLE_DIST_DIR: '/srv/console',
      }),
    );
    expect(deployed).toBe(
      'NODE_ENV=production; database: PostgreSQL at db.internal:5432/latchkey; identity: Firebase project acme-prod; public origin: https://latchkey.example.com; console: served from /srv/console',
    );
    expect(deployed).not.toContain('s3cret-pw');
  });
});
