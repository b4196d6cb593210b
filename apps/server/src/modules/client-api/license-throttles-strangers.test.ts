import { randomBytes, randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Application } from '@latchkey/contracts';
import { createThrottleStore } from '../../lib/failure-throttle.ts';
import {
  callClientApi,
  createAppUserViaApi,
  createApplicationViaApi,
  createPlanViaApi,
  generateLicensesViaApi,
} from '../../../test/factories.ts';
import { createLicenseThrottles } from './license-throttles.ts';
import { throttleStoresForFile } from '../../../test/test-redis.ts';
import {
  createTestDatabaseForSuite,
  signInOwnerForSuite,
  startTestAppForSuite,
} from '../../../test/suite-test-app.ts';
import { newIpv4Block } from '../../../test/fresh-addresses.ts';

const PASSWORD = 'correct horse battery staple';
/** Held guesses wait this long in these tests, so a thousand of them stay quick. */
const TEST_DELAY_MS = 1;

/**
 * Addresses and keys unique to this run: a Redis named by TEST_REDIS_URL outlives the run,
 * and application ids repeat in every fresh database.
 */
const newIpv6Prefix = () => `2001:db8:${randomInt(65_536).toString(16)}`;
const runId = randomBytes(4).toString('hex');

const stores = await throttleStoresForFile();

describe.each(stores)('licence-key throttles kept in $store', ({ env, isAvailable }) => {
  const database = createTestDatabaseForSuite();
  const testApp = startTestAppForSuite({
    database,
    env: { ...env, LICENSE_FAILURE_DELAY_MS: String(TEST_DELAY_MS) },
  });
  const owner = signInOwnerForSuite(testApp);

  const newApplication = async () => {
    const application = await createApplicationViaApi(testApp.app, owner);
    const plan = await createPlanViaApi(testApp.app, owner, application.id, {
      name: 'Pro',
      durationDays: 30,
    });
    const keys = (count: number) =>
      generateLicensesViaApi(testApp.app, owner, application.id, { planId: plan.id, count });
    return { application, keys };
  };
  const call = (
    application: Application,
    path: string,
    body: Record<string, unknown>,
    remoteAddress: string,
  ) => callClientApi(testApp.app, path, { apiKey: application.apiKey, body, remoteAddress });
  /** The client-API code, or the HTTP status when it is not 200. */
  const outcomeOf = (response: Awaited<ReturnType<typeof call>>) =>
    response.statusCode === 200 ? (response.json().code as string) : response.statusCode;
  const keyLogin = (application: Application, licenseKey: string, address: string) =>
    call(
      application,
      'license/login',
      { license_key: licenseKey, version: application.version },
      address,
    );
  const tally = (outcomes: (string | number)[]) =>
    outcomes.reduce<Record<string, number>>((counts, outcome) => {
      counts[outcome] = (counts[outcome] ?? 0) + 1;
      return counts;
    }, {});

  it.skipIf(!isAvailable)(
    'lets a valid key from a 51st address log in, redeem and register after 1,000 wrong keys from 50 addresses',
    async () => {
      const { application, keys } = await newApplication();
      const [forKeyLogin, forRedeem, forRegister] = await keys(3);
      const buyer = await createAppUserViaApi(testApp.app, owner, application.id, {
        password: PASSWORD,
      });
      const guesser = await createAppUserViaApi(testApp.app, owner, application.id, {
        password: PASSWORD,
      });
      // Fifty addresses, each in a /24 of its own, twenty wrong keys each, spread over the
      // three calls that take a key.
      const [a, b, c] = newIpv4Block();
      const guessers = Array.from({ length: 50 }, (_, n) => `${a}.${b}.${(c + n) % 256}.7`);
      const guess = async (attempt: number) => {
        const address = guessers[attempt % guessers.length]!;
        const wrongKey = `WRONG-${runId}-${attempt}`;
        if (attempt % 3 === 0) return keyLogin(application, wrongKey, address);
        const body =
          attempt % 3 === 1
            ? { username: guesser.username, password: PASSWORD, license_key: wrongKey }
            : { username: `g-${attempt}`, password: PASSWORD, license_key: wrongKey };
        return call(application, attempt % 3 === 1 ? 'license/redeem' : 'register', body, address);
      };
      // Ten guessers at a time, each address's guesses one after another.
      const outcomes: (string | number)[] = [];
      await Promise.all(
        Array.from({ length: 10 }, async (_, worker) => {
          for (let attempt = worker; attempt < 1000; attempt += 10) {
            outcomes.push(outcomeOf(await guess(attempt)));
          }
        }),
      );

      const buyerAddress = `${a}.${b}.${(c + 50) % 256}.9`;
      const loggedIn = await keyLogin(application, forKeyLogin!.key, buyerAddress);
      expect(loggedIn.statusCode, loggedIn.body).toBe(200);
      expect(loggedIn.json()).toMatchObject({ success: true, code: 'OK' });
      const redeemed = await call(
        application,
        'license/redeem',
        { username: buyer.username, password: PASSWORD, license_key: forRedeem!.key },
        buyerAddress,
      );
      expect(redeemed.statusCode, redeemed.body).toBe(200);
      expect(redeemed.json()).toMatchObject({ success: true, code: 'OK' });
      const registered = await call(
        application,
        'register',
        { username: `buyer-${runId}`, password: PASSWORD, license_key: forRegister!.key },
        buyerAddress,
      );
      expect(registered.statusCode, registered.body).toBe(200);
      expect(registered.json()).toMatchObject({ success: true, code: 'OK' });
      // Every guess was answered as a guess: none of the fifty addresses reached its own limit.
      expect(tally(outcomes)).toEqual({ LICENSE_INVALID: 1000 });
    },
    180_000,
  );

  it.skipIf(!isAvailable)(
    'stops an IPv4 /24 at 100 failures and an address at 20, but not the next range',
    async () => {
      const { application, keys } = await newApplication();
      const [valid, other] = await keys(2);
      const [a, b, c] = newIpv4Block();
      const range = `${a}.${b}.${c}`;
      // Five addresses of one /24, twenty wrong keys each: each stops at its own limit...
      for (let host = 1; host <= 5; host += 1) {
        const outcomes: (string | number)[] = [];
        for (let attempt = 0; attempt < 20; attempt += 1) {
          const wrongKey = `WRONG-${runId}-${host}-${attempt}`;
          outcomes.push(outcomeOf(await keyLogin(application, wrongKey, `${range}.${host}`)));
        }
        expect(tally(outcomes)).toEqual({ LICENSE_INVALID: 20 });
        const throttled = await keyLogin(application, `WRONG-${runId}-${host}`, `${range}.${host}`);
        expect(throttled.statusCode).toBe(429);
      }
      // ...and the range is spent: an address of it that never guessed waits too, even with a
      // valid key, with 429, Retry-After and the message of every licence throttle.
      const sameRange = await keyLogin(application, valid!.key, `${range}.200`);
      expect(sameRange.statusCode).toBe(429);
      expect(sameRange.json().message).toMatch(/^Too many failed licence key attempts/);
      expect(Number(sameRange.headers['retry-after'])).toBeGreaterThan(0);
      // The neighbouring /24 is another range.
      const nextRange = await keyLogin(application, other!.key, `${a}.${b}.${(c + 1) % 256}.200`);
      expect(outcomeOf(nextRange)).toBe('OK');
    },
  );

  it.skipIf(!isAvailable)('counts an IPv6 /64 as one address and a /48 as one range', async () => {
    const { application, keys } = await newApplication();
    const [valid, other] = await keys(2);
    const site = newIpv6Prefix();
    const subnet = (n: number) => `${site}:${n.toString(16)}`;
    // Twenty wrong keys from twenty addresses of one /64: one address's limit.
    for (let host = 1; host <= 20; host += 1) {
      const address = `${subnet(1)}:${host.toString(16)}::${host.toString(16)}`;
      expect(outcomeOf(await keyLogin(application, `W6-${runId}-${host}`, address))).toBe(
        'LICENSE_INVALID',
      );
    }
    expect((await keyLogin(application, valid!.key, `${subnet(1)}::beef`)).statusCode).toBe(429);
    // Four more /64s of the /48 bring the range to 100.
    for (let net = 2; net <= 5; net += 1) {
      for (let attempt = 0; attempt < 20; attempt += 1) {
        const wrongKey = `W6-${runId}-${net}-${attempt}`;
        expect(outcomeOf(await keyLogin(application, wrongKey, `${subnet(net)}::1`))).toBe(
          'LICENSE_INVALID',
        );
      }
    }
    expect((await keyLogin(application, valid!.key, `${subnet(99)}::1`)).statusCode).toBe(429);
    // Another /48 is untouched.
    const elsewhere = `2001:db8:${((parseInt(site.split(':')[2]!, 16) + 1) % 65_536).toString(16)}:1::1`;
    expect(outcomeOf(await keyLogin(application, other!.key, elsewhere))).toBe('OK');
  });

  it.skipIf(!isAvailable)(
    'stops one key tried from many addresses at 10, and only that key',
    async () => {
      const { application, keys } = await newApplication();
      const [used, valid] = await keys(2);
      await call(
        application,
        'register',
        { username: `first-${runId}`, password: PASSWORD, license_key: used!.key },
        '192.0.2.1',
      );
      // A used key passed around: ten addresses in ten ranges try it.
      const [a, b, c] = newIpv4Block();
      for (let n = 0; n < 10; n += 1) {
        const response = await keyLogin(application, used!.key, `${a}.${b}.${(c + n) % 256}.1`);
        expect(outcomeOf(response)).toBe('LICENSE_USED');
      }
      const fresh = `${a}.${b}.${(c + 10) % 256}.1`;
      const throttled = await keyLogin(application, used!.key, fresh);
      expect(throttled.statusCode).toBe(429);
      expect(throttled.json().message).toMatch(/^Too many failed licence key attempts/);
      // Other keys from the same address are not held by that key's counter.
      expect(outcomeOf(await keyLogin(application, valid!.key, fresh))).toBe('OK');
    },
  );

  it.skipIf(!isAvailable)(
    "over the application's ceiling, slows only addresses that already failed, and never refuses",
    async () => {
      const waits: number[] = [];
      const store = createThrottleStore({
        redisUrl: env.REDIS_URL ?? null,
        database,
        onRedisError: () => {},
      });
      const throttles = createLicenseThrottles({
        store,
        limits: {
          ...testApp.config.clientApi,
          licenseAppFailureLimit: 3,
          licenseFailureDelayMs: 250,
        },
        serverSecret: testApp.config.serverSecret,
        sleep: async (ms) => {
          waits.push(ms);
        },
      });
      try {
        // An application id no fresh database will have (Redis outlives the run).
        const applicationId = 1_000_000 + randomInt(1_000_000);
        const [a, b, c] = newIpv4Block();
        const guesser = `${a}.${b}.${c}.1`;
        const attempt = (ipAddress: string, licenseKey: string) => ({
          applicationId,
          ipAddress,
          licenseKey,
        });
        for (let n = 0; n < 3; n += 1) {
          await throttles.admit(attempt(guesser, `K-${runId}-${n}`));
          await throttles.recordFailure(attempt(guesser, `K-${runId}-${n}`));
        }
        // Three failures: the ceiling. Below it nothing waited.
        expect(waits).toEqual([]);
        await throttles.admit(attempt(guesser, `K-${runId}-3`));
        expect(waits).toEqual([250]);
        // An address with no failures of its own is neither held nor refused.
        await throttles.admit(attempt(`${a}.${b}.${(c + 1) % 256}.1`, `K-${runId}-valid`));
        expect(waits).toEqual([250]);
        // Another application's ceiling is its own.
        await throttles.admit({
          ...attempt(guesser, `K-${runId}-4`),
          applicationId: applicationId + 1,
        });
        expect(waits).toEqual([250]);
      } finally {
        await store.close();
      }
    },
  );
});
