import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiTokenViaApi } from '../../../test/factories.ts';
import { type TestApp } from '../../../test/test-app.ts';
import { startTestRedis } from '../../../test/test-redis.ts';
import { signInOwnerForSuite, startTwoInstancesForSuite } from '../../../test/suite-test-app.ts';

const redis = await startTestRedis();
afterAll(() => redis?.stop());

const LIMIT = 6;

// Two instances on one database and one Redis: a token's calls a minute are one
// budget, counted in the same store as the throttles, whichever instance a call reaches.
describe.runIf(redis)('the management API per-token budget with Redis', () => {
  const { first, second } = startTwoInstancesForSuite(() => ({
    env: { REDIS_URL: redis!.url, MANAGE_API_RATE_LIMIT_PER_MINUTE: String(LIMIT) },
  }));
  const owner = signInOwnerForSuite(first);
  let token: string;

  beforeAll(async () => {
    // A fresh token per run: a Redis named by TEST_REDIS_URL outlives test runs.
    token = (await createApiTokenViaApi(first.app, owner, { scopes: ['applications:read'] })).token;
  });

  const list = (app: TestApp) =>
    app.app.inject({
      method: 'GET',
      url: '/api/manage/v1/applications',
      headers: { authorization: `Bearer ${token}` },
    });

  it('counts calls to every instance against one budget', async () => {
    const remaining: string[] = [];
    for (let call = 0; call < LIMIT; call += 1) {
      const response = await list(call % 2 ? second : first);
      expect(response.statusCode, response.body).toBe(200);
      remaining.push(String(response.headers['ratelimit-remaining']));
    }
    expect(remaining).toEqual(['5', '4', '3', '2', '1', '0']);
    for (const app of [first, second]) {
      const limited = await list(app);
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    }
  });
});
