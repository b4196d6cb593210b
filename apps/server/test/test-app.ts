import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import type { DatabaseConnection } from '../src/db/client.ts';
import { createFirebaseIdentityVerifier } from '../src/identity/identity-verifier.ts';
import type { Clock } from '../src/lib/clock.ts';
import {
  emulatorGoogleIdToken,
  newGoogleAccount,
  testEmulatorHost,
  type GoogleTestAccount,
} from './emulator-accounts.ts';
import { createTestDatabase } from './test-database.ts';

export interface TestApp {
  app: FastifyInstance;
  database: DatabaseConnection;
  config: Config;
  close(): Promise<void>;
}

/** The real application on a fresh database, wired to the shared test emulator. */
export async function createTestApp(
  options: {
    clock?: Clock;
    env?: Record<string, string>;
    database?: DatabaseConnection;
    /** The background retention sweep is off unless a test asks for it: it deletes by age. */
    isRetentionSweepEnabled?: boolean;
  } = {},
): Promise<TestApp> {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'latchkey-test-')),
    FIREBASE_AUTH_EMULATOR_HOST: testEmulatorHost(),
    SERVE_CONSOLE: 'false',
    ...options.env,
  });
  const database = options.database ?? (await createTestDatabase());
  const identity = createFirebaseIdentityVerifier({
    projectId: config.identity.projectId,
    emulatorHost: config.identity.emulatorHost,
  });
  const app = await buildApp({
    config,
    database,
    identity,
    ...(options.clock ? { clock: options.clock } : {}),
    isRetentionSweepEnabled: options.isRetentionSweepEnabled ?? false,
  });
  await app.ready();
  return {
    app,
    database,
    config,
    close: async () => {
      await app.close();
      await identity.close();
      if (!options.database) await database.close();
    },
  };
}

export interface SignedInOwner {
  accountId: string;
  cookie: string;
  account: GoogleTestAccount;
  /** Headers the console would send: the session cookie and the stored account id. */
  headers: Record<string, string>;
}

/** Signs a (new, unless given) Google account in through POST /api/auth/firebase-login. */
export async function signInOwner(
  app: FastifyInstance,
  account: GoogleTestAccount = newGoogleAccount(),
): Promise<SignedInOwner> {
  const { idToken, uid } = await emulatorGoogleIdToken(account);
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/firebase-login',
    payload: {
      firebase_token: idToken,
      firebase_uid: uid,
      email: account.email,
      display_name: account.name,
    },
  });
  const body = response.json() as { success: boolean; account_id?: string; message: string };
  const setCookie = response.cookies.find((cookie) => cookie.name === 'latchkey_session');
  if (!body.success || !body.account_id || !setCookie) {
    throw new Error(`sign-in failed: ${response.body}`);
  }
  const cookie = `latchkey_session=${setCookie.value}`;
  return {
    accountId: body.account_id,
    cookie,
    account,
    headers: { cookie, 'x-account-id': body.account_id },
  };
}
