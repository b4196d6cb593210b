import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseConnection } from '../../db/client.ts';
import { appUsers } from '../../db/schema/index.ts';
import {
  callClientApi,
  insertAppUserWithPassword,
  insertClientApplication,
} from '../../../test/factories.ts';
import { createTestApp, signInOwner, type TestApp } from '../../../test/test-app.ts';
import { createTestDatabase } from '../../../test/test-database.ts';
import { throttleStoresForFile } from '../../../test/test-redis.ts';
import { newIpv4BlockPrefix } from '../../../test/fresh-addresses.ts';

const PASSWORD = 'the right password';
// Two instances must read each other's signing keys: one secret, as in a real deployment.
const SERVER_SECRET = randomBytes(32).toString('base64url');

/**
 * Usernames unique to this run: a Redis named by TEST_REDIS_URL outlives the run, and
 * application ids repeat in every fresh database.
 */
const newName = (label: string) => `${label}-${randomBytes(4).toString('hex')}`;

const stores = await throttleStoresForFile();

describe.each(stores)('failed-login throttles kept in $store', ({ env, isAvailable }) => {
  let database: DatabaseConnection;
  let testApp: TestApp;
  let ownerAccountId: string;
  const startInstance = () => createTestApp({ database, env: { ...env, SERVER_SECRET } });

  beforeAll(async () => {
    if (!isAvailable) return;
    database = await createTestDatabase();
    testApp = await startInstance();
    ownerAccountId = (await signInOwner(testApp.app)).accountId;
  });
  afterAll(async () => {
    await testApp?.close();
    await database?.close();
  });

  const login = (
    instance: TestApp,
    apiKey: string,
    username: string,
    password: string,
    remoteAddress: string,
  ) =>
    callClientApi(instance.app, 'login', {
      apiKey,
      body: { username, password, version: '1.0.0' },
      remoteAddress,
    });
  /** The client-API code, or the HTTP status when it is not 200. */
  const outcomeOf = (response: Awaited<ReturnType<typeof login>>) =>
    response.statusCode === 200 ? (response.json().code as string) : response.statusCode;

  it.skipIf(!isAvailable)(
    'stops 110 guesses at one username from 11 addresses at 50, but not the user from their last login address',
    async () => {
      const application = await insertClientApplication(testApp, ownerAccountId);
      const user = await insertAppUserWithPassword(database.db, application.id, PASSWORD, {
        username: newName('victim'),
      });
      const block = newIpv4BlockPrefix();
      const outcomes: (string | number)[] = [];
      for (let address = 1; address <= 11; address += 1) {
        for (let guess = 1; guess <= 10; guess += 1) {
          const response = await login(
            testApp,
            application.apiKey,
            user.username,
            `guess ${guess}`,
            `${block}.${address}`,
          );
          outcomes.push(outcomeOf(response));
        }
      }
      expect(outcomes.slice(0, 50)).toEqual(Array(50).fill('INVALID_CREDENTIALS'));
      expect(outcomes.slice(50)).toEqual(Array(60).fill(429));

      // Even the right password is refused from a new address while the username is throttled...
      const elsewhere = await login(
        testApp,
        application.apiKey,
        user.username,
        PASSWORD,
        `${block}.200`,
      );
      expect(elsewhere.statusCode).toBe(429);
      expect(elsewhere.json().message).toMatch(/^Too many failed login attempts/);
      expect(Number(elsewhere.headers['retry-after'])).toBeGreaterThan(0);
      // ...but not from the address of the user's last successful login.
      const home = `${block}.201`;
      await database.db.update(appUsers).set({ lastLoginIp: home }).where(eq(appUsers.id, user.id));
      expect(outcomeOf(await login(testApp, application.apiKey, user.username, 'typo', home))).toBe(
        'INVALID_CREDENTIALS',
      );
      expect(
        outcomeOf(await login(testApp, application.apiKey, user.username, PASSWORD, home)),
      ).toBe('OK');
    },
  );

  it.skipIf(!isAvailable)('stops password spraying from one address at 100 usernames', async () => {
    const application = await insertClientApplication(testApp, ownerAccountId);
    const sibling = await insertClientApplication(testApp, ownerAccountId);
    const user = await insertAppUserWithPassword(database.db, application.id, PASSWORD);
    const sprayer = `${newIpv4BlockPrefix()}.1`;
    const prefix = newName('sprayed');
    const outcomes: (string | number)[] = [];
    for (let index = 1; index <= 150; index += 1) {
      const response = await login(
        testApp,
        application.apiKey,
        `${prefix}-${index}`,
        'Summer2026!',
        sprayer,
      );
      outcomes.push(outcomeOf(response));
    }
    expect(outcomes.slice(0, 100)).toEqual(Array(100).fill('INVALID_CREDENTIALS'));
    expect(outcomes.slice(100)).toEqual(Array(50).fill(429));
    // Every username, even a real one with its password, from that address; no one else.
    expect(
      outcomeOf(await login(testApp, application.apiKey, user.username, PASSWORD, sprayer)),
    ).toBe(429);
    const elsewhere = `${newIpv4BlockPrefix()}.2`;
    expect(
      outcomeOf(await login(testApp, application.apiKey, user.username, PASSWORD, elsewhere)),
    ).toBe('OK');
    expect(outcomeOf(await login(testApp, sibling.apiKey, 'nobody', 'x', sprayer))).toBe(
      'INVALID_CREDENTIALS',
    );
  });

  it.skipIf(!isAvailable)('clears the per-address count of a username on success', async () => {
    const application = await insertClientApplication(testApp, ownerAccountId);
    const user = await insertAppUserWithPassword(database.db, application.id, PASSWORD);
    const address = `${newIpv4BlockPrefix()}.1`;
    const attempt = (password: string) =>
      login(testApp, application.apiKey, user.username, password, address).then(outcomeOf);
    for (let guess = 0; guess < 9; guess += 1)
      expect(await attempt('wrong')).toBe('INVALID_CREDENTIALS');
    expect(await attempt(PASSWORD)).toBe('OK');
    for (let guess = 0; guess < 9; guess += 1)
      expect(await attempt('wrong')).toBe('INVALID_CREDENTIALS');
    expect(await attempt(PASSWORD)).toBe('OK');
  });

  it.skipIf(!isAvailable)('keeps a throttle across a restart of the instance', async () => {
    const application = await insertClientApplication(testApp, ownerAccountId);
    const user = await insertAppUserWithPassword(database.db, application.id, PASSWORD);
    const address = `${newIpv4BlockPrefix()}.1`;
    const first = await startInstance();
    for (let guess = 0; guess < 10; guess += 1) {
      expect(
        outcomeOf(await login(first, application.apiKey, user.username, 'wrong', address)),
      ).toBe('INVALID_CREDENTIALS');
    }
    await first.close();
    const restarted = await startInstance();
    try {
      expect(
        outcomeOf(await login(restarted, application.apiKey, user.username, PASSWORD, address)),
      ).toBe(429);
    } finally {
      await restarted.close();
    }
  });

  it.skipIf(!isAvailable)('shares one count between two instances running at once', async () => {
    const application = await insertClientApplication(testApp, ownerAccountId);
    const user = await insertAppUserWithPassword(database.db, application.id, PASSWORD);
    const address = `${newIpv4BlockPrefix()}.1`;
    const second = await startInstance();
    try {
      for (let guess = 0; guess < 10; guess += 1) {
        const instance = guess % 2 === 0 ? testApp : second;
        expect(
          outcomeOf(await login(instance, application.apiKey, user.username, 'wrong', address)),
        ).toBe('INVALID_CREDENTIALS');
      }
      for (const instance of [testApp, second]) {
        expect(
          outcomeOf(await login(instance, application.apiKey, user.username, PASSWORD, address)),
        ).toBe(429);
      }
    } finally {
      await second.close();
    }
  });
});
