import { randomInt } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  callClientApi,
  insertAppUserWithPassword,
  insertClientApplication,
} from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { startTestRedis } from '../../../test/test-redis.ts';
import { signInOwnerForSuite, startTwoInstancesForSuite } from '../../../test/suite-test-app.ts';
import { newIpv4BlockPrefix } from '../../../test/fresh-addresses.ts';

const redis = await startTestRedis();
afterAll(() => redis?.stop());

const LIMIT = 10;
/** A Redis named by TEST_REDIS_URL outlives test runs: an address of this run's own. */
const freshAddress = () => `${newIpv4BlockPrefix()}.${randomInt(1, 255)}`;

// Two instances on one database and one Redis: an application's per-IP request budget is
// one budget, whichever instance a request reaches.
describe.runIf(redis)('the per-IP request limit with Redis', () => {
  const { database, secondConnection, first, second } = startTwoInstancesForSuite(() => ({
    env: { REDIS_URL: redis!.url, CLIENT_API_IP_LIMIT_PER_MINUTE: String(LIMIT) },
  }));
  const owner = signInOwnerForSuite(first);
  let verify: (app: TestApp, remoteAddress: string) => Promise<number>;

  beforeAll(async () => {
    const application = await insertClientApplication(first, owner.accountId);
    const user = await insertAppUserWithPassword(database.db, application.id, 'pw');
    verify = async (app, remoteAddress) =>
      (
        await callClientApi(app.app, 'verify', {
          apiKey: application.apiKey,
          body: { user_id: user.id },
          remoteAddress,
        })
      ).statusCode;
    // Each instance's Redis client connects in the background, and until it is ready the
    // shared budget is skipped (the hot path does not wait for Redis): calls made before then
    // are not counted across instances. So the tests start once a call to each instance, from
    // an address of its own, shows up in Redis.
    const probe = new Redis(redis!.url);
    try {
      for (const instance of [first, second]) {
        await vi.waitFor(
          async () => {
            const address = freshAddress();
            await verify(instance, address);
            expect(await probe.exists(`client_api_ip:${application.id} ${address}`)).toBe(1);
          },
          { timeout: 10_000, interval: 50 },
        );
      }
    } finally {
      probe.disconnect();
    }
  });

  it('counts requests to every instance against one budget', async () => {
    const address = freshAddress();
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT; i += 1) statuses.push(await verify(i % 2 ? second : first, address));
    expect(statuses).toEqual(Array(LIMIT).fill(200));
    // Each instance alone has spent only half of its own bucket.
    expect(await verify(first, address)).toBe(429);
    expect(await verify(second, address)).toBe(429);
    // Another address has its own budget.
    expect(await verify(second, freshAddress())).toBe(200);
  });

  it('falls back to the per-instance budget at once while Redis is unreachable', async () => {
    const unreachable = await createTestApp({
      database: secondConnection,
      env: {
        REDIS_URL: 'redis://127.0.0.1:1',
        CLIENT_API_IP_LIMIT_PER_MINUTE: String(LIMIT),
        SERVER_SECRET: first.config.serverSecret,
      },
    });
    try {
      const address = freshAddress();
      const startedAt = Date.now();
      const statuses: number[] = [];
      for (let i = 0; i <= LIMIT; i += 1) statuses.push(await verify(unreachable, address));
      expect(statuses).toEqual([...Array(LIMIT).fill(200), 429]);
      expect(Date.now() - startedAt).toBeLessThan(5000);
    } finally {
      await unreachable.close();
    }
  });
});
