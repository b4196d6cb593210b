import { afterAll, beforeAll } from 'vitest';
import type { DatabaseConnection } from '../src/db/client.ts';
import type { GoogleTestAccount } from './emulator-accounts.ts';
import { createTestApp, signInOwner, type SignedInOwner, type TestApp } from './test-app.ts';
import { createTestDatabase, type TestDatabase } from './test-database.ts';

type TestAppOptions = NonNullable<Parameters<typeof createTestApp>[0]>;

/**
 * A value a suite's `beforeAll` makes, named before it exists: the suite declares it in one line
 * instead of a `let` and an assignment, and a read before the hook has run fails with a message
 * instead of handing back undefined.
 */
function madeBeforeAll<T extends object>(what: string): { value: T; set(made: T): void } {
  let current: T | undefined;
  const made = (): T => {
    if (current === undefined) {
      throw new Error(`${what} is made in beforeAll: read it in a hook or a test`);
    }
    return current;
  };
  const value = new Proxy({} as T, {
    get: (_target, key) => Reflect.get(made(), key),
    has: (_target, key) => Reflect.has(made(), key),
    ownKeys: () => Reflect.ownKeys(made()),
    getOwnPropertyDescriptor: (_target, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(made(), key);
      // The proxy's own target is empty, so every property it reports must be configurable.
      return descriptor && { ...descriptor, configurable: true };
    },
  });
  return { value, set: (made) => (current = made) };
}

/**
 * A fresh database of the suite's own, made before its first test and closed after its last,
 * for suites that start more than one app on it: an app given a database leaves it open.
 */
export function createTestDatabaseForSuite(): TestDatabase {
  const database = madeBeforeAll<TestDatabase>('the test database');
  let created: TestDatabase | undefined;
  beforeAll(async () => {
    created = await createTestDatabase();
    database.set(created);
  });
  afterAll(() => created?.close());
  return database.value;
}

/**
 * The real application on a fresh database for the tests of the calling `describe` (or file):
 * started before its first test, closed after its last. Options that depend on other set-up
 * (a database, a Redis server) can be given as a function, called when the app starts.
 */
export function startTestAppForSuite(
  options: TestAppOptions | (() => TestAppOptions | Promise<TestAppOptions>) = {},
): TestApp {
  const testApp = madeBeforeAll<TestApp>('the test app');
  let started: TestApp | undefined;
  beforeAll(async () => {
    started = await createTestApp(typeof options === 'function' ? await options() : options);
    testApp.set(started);
  });
  afterAll(() => started?.close());
  return testApp.value;
}

/**
 * An owner signed in (a new Google account unless one is given) before the suite's first test,
 * once `testApp` has started: call it after `startTestAppForSuite`.
 */
export function signInOwnerForSuite(
  testApp: TestApp,
  options: { account?: GoogleTestAccount } = {},
): SignedInOwner {
  const owner = madeBeforeAll<SignedInOwner>('the signed-in owner');
  beforeAll(async () => {
    owner.set(await signInOwner(testApp.app, options.account));
  });
  return owner.value;
}

/**
 * A second connection to the suite's database, as another instance of the server has, opened
 * after the database is made and closed before it is.
 */
export function connectAgainForSuite(database: TestDatabase): DatabaseConnection {
  const connection = madeBeforeAll<DatabaseConnection>('the second connection');
  let opened: DatabaseConnection | undefined;
  beforeAll(async () => {
    opened = await database.connectAgain();
    connection.set(opened);
  });
  afterAll(() => opened?.close());
  return connection.value;
}

/**
 * Two instances of the server on one fresh database, as a deployment of several runs: the
 * second on a connection of its own and with the first's SERVER_SECRET (one deployment, one
 * secret), so either can serve what the other wrote. Options that read other set-up (a Redis)
 * can be given as a function, called when the instances start.
 */
export function startTwoInstancesForSuite(
  options: Omit<TestAppOptions, 'database'> | (() => Omit<TestAppOptions, 'database'>) = {},
): {
  database: TestDatabase;
  secondConnection: DatabaseConnection;
  first: TestApp;
  second: TestApp;
} {
  const optionsNow = () => (typeof options === 'function' ? options() : options);
  const database = createTestDatabaseForSuite();
  const secondConnection = connectAgainForSuite(database);
  const first = startTestAppForSuite(() => ({ ...optionsNow(), database }));
  const second = startTestAppForSuite(() => {
    const shared = optionsNow();
    return {
      ...shared,
      database: secondConnection,
      env: { ...shared.env, SERVER_SECRET: first.config.serverSecret },
    };
  });
  return { database, secondConnection, first, second };
}

/**
 * The test app on a database of the suite's own, and a second connection to that database
 * that reads as another instance would: what the app wrote before answering is seen there.
 */
export function startTestAppWithSecondConnection(options: Omit<TestAppOptions, 'database'> = {}): {
  database: TestDatabase;
  testApp: TestApp;
  otherConnection: DatabaseConnection;
} {
  const database = createTestDatabaseForSuite();
  const testApp = startTestAppForSuite({ ...options, database });
  const otherConnection = connectAgainForSuite(database);
  return { database, testApp, otherConnection };
}
