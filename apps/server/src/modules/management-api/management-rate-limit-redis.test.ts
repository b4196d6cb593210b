import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseConnection } from '../../db/client.ts';
import { createApiTokenViaApi } from '../../../test/factories.ts';
import { createTestApp, signInOwner, type TestApp } from '../../../test/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/test-database.ts';
import { startTestRedis } from '../../../test/test-redis.ts';

const redis = await startTestRedis();
afterAll(() => redis?.stop());

const LIMIT = 6;

// Two instances on one database and one Redis: a token's calls a minute are one
// budget, counted in the same store as the throttles, whichever instance a call reaches.
describe.runIf(redis)('the management API per-token budget with Redis', () => {
  let database: TestDatabase;
  let secondConnection: DatabaseConnection;
  let first: TestApp;
  let second: TestApp;
  let token: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    secondConnection = await database.connectAgain();
    const env = { REDIS_URL: redis!.url, MANAGE_API_RATE_LIMIT_PER_MINUTE: String(LIMIT) };
    first = await createTestApp({ database, env });
    second = await createTestApp({
      database: secondConnection,
      env: { ...env, SERVER_SECRET: first.config.serverSecret },
    });
    const owner = await signInOwner(first.app);
    // A fresh token per run: a Redis named by TEST_REDIS_URL outlives test runs.
    token = (await createApiTokenViaApi(first.app, owner, { scopes: ['applications:read'] })).token;
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await secondConnection?.close();
    await database?.close();
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
