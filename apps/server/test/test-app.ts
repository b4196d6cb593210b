import type { FastifyInstance, RouteOptions } from 'fastify';
import { buildApp } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import type { DatabaseConnection } from '../src/db/client.ts';
import { createFirebaseIdentityVerifier } from '../src/identity/identity-verifier.ts';
import type { ContractViolation } from '../src/http/response-contract-check.ts';
import type { Clock } from '../src/lib/clock.ts';
import { recordContractViolation } from './contract-violations.ts';
import {
  emulatorGoogleIdToken,
  newGoogleAccount,
  testEmulatorHost,
  type GoogleTestAccount,
} from './emulator-accounts.ts';
import { createTestDatabase } from './test-database.ts';
import { makeTemporaryDirectory, removeDirectory } from './temporary-directory.ts';
import type { OwnerEventHub } from '../src/events/owner-event-hub.ts';

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
    onRoute?: (route: RouteOptions) => void;
    /** The hub owner verbs publish to, for a test that listens (a fresh one otherwise). */
    ownerEvents?: OwnerEventHub;
    /** The background retention sweep is off unless a test asks for it: it deletes by age. */
    isRetentionSweepEnabled?: boolean;
    /** Webhooks are not sent unless a test asks: most look at the queued deliveries. */
    isWebhookDispatcherEnabled?: boolean;
    /** Mail is not sent unless a test asks (SMTP_URL in `env`, or the local mailbox). */
    isMailDispatcherEnabled?: boolean;
    /**
     * Where answers that break their documented contract go. By default they are recorded and
     * fail the test (assert-response-contracts.ts); a test of the check itself takes them.
     */
    onContractViolation?: (violation: ContractViolation) => void;
    /** The live stream's timings and bounds, quicker than production's in tests. */
    ownerEventStream?: Parameters<typeof buildApp>[0]['ownerEventStream'];
    /** Logger settings, for a test that reads what is logged (silent otherwise). */
    logger?: Parameters<typeof buildApp>[0]['logger'];
    /** One side of CLIENT_API_PORT's split; everything by default. */
    serves?: Parameters<typeof buildApp>[0]['serves'];
  } = {},
): Promise<TestApp> {
  // The app writes its server secret here; close() removes the folder with it.
  const dataDir = makeTemporaryDirectory('latchkey-test-');
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATA_DIR: dataDir,
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
    ...(options.onRoute ? { onRoute: options.onRoute } : {}),
    ...(options.ownerEvents ? { ownerEvents: options.ownerEvents } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.serves ? { serves: options.serves } : {}),
    onContractViolation: options.onContractViolation ?? recordContractViolation,
    isRetentionSweepEnabled: options.isRetentionSweepEnabled ?? false,
    isWebhookDispatcherEnabled: options.isWebhookDispatcherEnabled ?? false,
    isMailDispatcherEnabled: options.isMailDispatcherEnabled ?? false,
    // A stream ends after 100 ms unless a test says otherwise, so inject() (which waits for
    // the whole answer) can call GET /api/events like any route.
    ownerEventStream: { maxDurationMs: 100, ...options.ownerEventStream },
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
      removeDirectory(dataDir);
    },
  };
}

/**
 * The Origin a browser on the console sends with every POST, PUT and DELETE: the test
 * app's own origin (inject's Host is localhost:80), so owner mutations pass the CSRF check.
 */
export const testConsoleOrigin = 'http://localhost';

export interface SignedInOwner {
  accountId: string;
  cookie: string;
  account: GoogleTestAccount;
  /** Headers the console would send: the session cookie, the stored account id and its Origin. */
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
    headers: { origin: testConsoleOrigin },
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
    headers: { cookie, 'x-account-id': body.account_id, origin: testConsoleOrigin },
  };
}
