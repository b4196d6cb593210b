import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import {
  RateLimiterPostgres,
  RateLimiterRedis,
  type RateLimiterStoreAbstract,
} from 'rate-limiter-flexible';
import type { DatabaseConnection } from '../db/client.ts';
import type { RateLimitDecision } from './rate-limiter.ts';

/** The table migration 0004 created in rate-limiter-flexible's RateLimiterPostgres layout. */
const THROTTLE_TABLE = 'rate_limits';

/**
 * Where failure counters live: every instance sees them and a restart keeps them. The
 * database by default; Redis when configured. The counting is rate-limiter-flexible's.
 */
export interface ThrottleStore {
  kind: 'database' | 'redis';
  createLimiter(options: {
    name: string;
    points: number;
    durationSeconds: number;
    /**
     * Redis only: fail at once (instead of waiting for a reconnection) while Redis is down,
     * for a limit whose caller has a fallback and must not make requests wait.
     */
    failFastWhenUnavailable?: boolean;
  }): Limiter;
  /**
   * The database store only: the live rows (`rate_limits`) of several counters in one
   * statement, read as rate-limiter-flexible reads one (expired rows left out), for a check
   * of several counters at once.
   */
  readLiveRows?(storeKeys: string[]): Promise<LiveThrottleRows>;
  close(): Promise<void>;
}
type Limiter = RateLimiterStoreAbstract;

/** Counter rows by store key (absent: no live row), read at `nowMs` (wall-clock epoch ms). */
export interface LiveThrottleRows {
  nowMs: number;
  rows: Map<string, ThrottleRow>;
}

export function createThrottleStore(options: {
  redisUrl: string | null;
  database: DatabaseConnection;
  onRedisError: (error: Error) => void;
}): ThrottleStore {
  if (options.redisUrl) {
    const client = new Redis(options.redisUrl);
    // Without a listener ioredis prints every failed reconnection attempt to stderr; it
    // keeps reconnecting either way, and commands wait for it.
    client.on('error', options.onRedisError);
    return {
      kind: 'redis',
      createLimiter: ({ name, points, durationSeconds, failFastWhenUnavailable = false }) =>
        new RateLimiterRedis({
          storeClient: client,
          keyPrefix: name,
          points,
          duration: durationSeconds,
          rejectIfRedisNotReady: failFastWhenUnavailable,
        }),
      close: async () => {
        await client.quit().catch(() => client.disconnect());
      },
    };
  }
  // RateLimiterPostgres speaks node-postgres (`query({ name, text, values })`, `rows`,
  // `rowCount`); DatabaseConnection.query answers in that shape for PGlite too.
  const storeClient = { query: options.database.query };
  let isSweepScheduled = false;
  return {
    kind: 'database',
    createLimiter: ({ name, points, durationSeconds }) => {
      // One limiter per store sweeps expired rows (every 5 minutes, rows expired over an
      // hour ago); all of them share the table.
      const clearExpiredByTimeout = !isSweepScheduled;
      isSweepScheduled = true;
      return new RateLimiterPostgres({
        storeClient,
        storeType: 'client',
        tableName: THROTTLE_TABLE,
        tableCreated: true,
        clearExpiredByTimeout,
        keyPrefix: name,
        points,
        duration: durationSeconds,
      });
    },
    readLiveRows: async (storeKeys) => {
      const nowMs = Date.now();
      const { rows } = await options.database.query({
        name: 'throttle_live_rows',
        text: `select key, points, expire from ${THROTTLE_TABLE}
               where key = any($1::text[]) and (expire > $2 or expire is null)`,
        values: [storeKeys, nowMs],
      });
      return {
        nowMs,
        rows: new Map(
          rows.map((row) => [
            String(row.key),
            {
              points: Number(row.points),
              // bigint: node-postgres answers it as text.
              expire: row.expire === null ? null : Number(row.expire),
            },
          ]),
        ),
      };
    },
    close: async () => {},
  };
}

/** What a failure counter says about one key. */
export interface FailureCheck extends RateLimitDecision {
  /** Whether the key has failures in its current window (so a success has one to clear). */
  hasFailures: boolean;
}

/**
 * At most `maxFailures` failures per key within a window that starts at the key's first
 * failure. Keys are hashed: they carry usernames (any Unicode) and addresses, and the
 * store's key column is varchar(255).
 */
export function createFailureThrottle(options: {
  store: ThrottleStore;
  name: string;
  maxFailures: number;
  windowMs: number;
}) {
  const { maxFailures } = options;
  const limiter = options.store.createLimiter({
    name: options.name,
    points: maxFailures,
    durationSeconds: Math.max(1, Math.round(options.windowMs / 1000)),
  });
  const decide = (counter: { consumedPoints: number; msBeforeNext: number } | null) => {
    if (!counter) return { isAllowed: true, retryAfterSeconds: 0, hasFailures: false };
    if (counter.consumedPoints < maxFailures) {
      return { isAllowed: true, retryAfterSeconds: 0, hasFailures: counter.consumedPoints > 0 };
    }
    return {
      isAllowed: false,
      retryAfterSeconds: Math.max(1, Math.ceil(counter.msBeforeNext / 1000)),
      hasFailures: true,
    };
  };
  return {
    async check(key: string): Promise<FailureCheck> {
      return decide(await limiter.get(hashKey(key)));
    },
    /**
     * The key's row in the database store's table (`rate_limits.key`), for a statement that
     * reads counters together with other data (login's user lookup); null for Redis.
     */
    storeKey(key: string): string | null {
      return options.store.kind === 'database' ? limiter.getKey(hashKey(key)) : null;
    },
    /**
     * What `check` would answer, from the key's row read elsewhere: absent (or expired, which
     * the reader must filter out as rate-limiter-flexible does: `expire > now or expire is
     * null`) means no failures.
     */
    decideFromRow(row: ThrottleRow | undefined, nowMs: number): FailureCheck {
      if (!row) return decide(null);
      return decide({
        consumedPoints: row.points,
        msBeforeNext: row.expire === null ? -1 : Math.max(row.expire - nowMs, 0),
      });
    },
    async recordFailure(key: string): Promise<void> {
      await limiter.penalty(hashKey(key), 1);
    },
    async reset(key: string): Promise<void> {
      await limiter.delete(hashKey(key));
    },
  };
}

/** A row of the database store's table, as rate-limiter-flexible's RateLimiterPostgres keeps it. */
export interface ThrottleRow {
  points: number;
  /** Epoch milliseconds; null for a key that never expires. */
  expire: number | null;
}
export type FailureThrottle = ReturnType<typeof createFailureThrottle>;

const hashKey = (key: string) => createHash('sha256').update(key).digest('base64url');
