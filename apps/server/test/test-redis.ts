import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll } from 'vitest';

export interface TestRedis {
  url: string;
  stop(): Promise<void>;
}

/** A store the throttle counters can live in, for `describe.each`. */
export interface ThrottleStore {
  store: string;
  env: Record<string, string>;
  /** False for Redis where none is at hand: the suite's tests skip, and so its hooks. */
  isAvailable: boolean;
}

/**
 * Both stores the throttles can count in: the database, and Redis through startTestRedis
 * (which stops after the calling file). Call it at the top level of a test file.
 */
export async function throttleStoresForFile(): Promise<ThrottleStore[]> {
  const redis = await startTestRedis();
  afterAll(() => redis?.stop());
  return [
    { store: 'the database', env: {}, isAvailable: true },
    { store: 'Redis', env: redis ? { REDIS_URL: redis.url } : {}, isAvailable: redis !== null },
  ];
}

/**
 * A Redis for one test file: the server TEST_REDIS_URL names (CI starts one), else a
 * throwaway `redis-server` on a free port. Null when neither is available, so the Redis
 * tests skip locally; under CI=true that is an error instead, as a missing
 * TEST_DATABASE_URL is in scripts/test.mjs.
 */
export async function startTestRedis(): Promise<TestRedis | null> {
  const configuredUrl = process.env.TEST_REDIS_URL;
  if (configuredUrl) {
    if (!(await isReachable(configuredUrl))) {
      throw new Error(`TEST_REDIS_URL=${configuredUrl} is not reachable`);
    }
    return { url: configuredUrl, stop: async () => {} };
  }
  const started = await startRedisServer();
  if (!started && process.env.CI === 'true') {
    throw new Error(
      'CI=true but no Redis is reachable: set TEST_REDIS_URL or install redis-server; the Redis tests cannot be skipped in CI.',
    );
  }
  return started;
}

async function startRedisServer(): Promise<TestRedis | null> {
  const port = await freePort();
  let server: ChildProcess;
  try {
    server = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    await new Promise<void>((resolve, reject) => {
      server.once('spawn', resolve);
      server.once('error', reject);
    });
  } catch {
    return null; // not installed
  }
  const url = `redis://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 50; attempt += 1) {
    if (await isReachable(url)) {
      return {
        url,
        stop: async () => {
          server.kill('SIGTERM');
          if (server.exitCode === null)
            await new Promise((resolve) => server.once('exit', resolve));
        },
      };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  server.kill('SIGKILL');
  throw new Error(`redis-server did not answer on port ${port}`);
}

async function isReachable(url: string): Promise<boolean> {
  const client = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}
