import type { Clock } from './clock.ts';

export interface RateLimitDecision {
  isAllowed: boolean;
  /** Whole seconds until the next attempt can succeed (0 when allowed). */
  retryAfterSeconds: number;
}

const ALLOWED: RateLimitDecision = { isAllowed: true, retryAfterSeconds: 0 };

/** Least recently used keys go first when a limiter holds more than this many keys. */
export const DEFAULT_MAX_KEYS = 100_000;

/**
 * A token bucket per key: `limit` requests per `windowMs` sustained, bursts up to `limit`.
 * In memory, per process; bounded by evicting the least recently used key (a key idle for a
 * whole window has a full bucket anyway, so evicting it loses nothing).
 */
export function createRequestRateLimiter(options: {
  limit: number;
  windowMs: number;
  clock: Clock;
  maxKeys?: number;
}) {
  const { limit, windowMs, clock } = options;
  const maxKeys = options.maxKeys ?? DEFAULT_MAX_KEYS;
  const refillPerMs = limit / windowMs;
  const buckets = new Map<string, { tokens: number; updatedAt: number }>();

  return {
    /** Spends one request for the key, or says how long until one is available. */
    take(key: string): RateLimitDecision {
      const now = clock.now().getTime();
      const bucket = buckets.get(key);
      let tokens = limit;
      if (bucket) {
        buckets.delete(key); // re-inserted below: Map order is recency order
        tokens = Math.min(limit, bucket.tokens + Math.max(0, now - bucket.updatedAt) * refillPerMs);
      } else {
        evictOldest(buckets, maxKeys);
      }
      const isAllowed = tokens >= 1;
      if (isAllowed) tokens -= 1;
      buckets.set(key, { tokens, updatedAt: now });
      if (isAllowed) return ALLOWED;
      return {
        isAllowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / refillPerMs / 1000)),
      };
    },
    get size() {
      return buckets.size;
    },
  };
}
export type RequestRateLimiter = ReturnType<typeof createRequestRateLimiter>;

function evictOldest(map: Map<string, unknown>, maxKeys: number): void {
  while (map.size >= maxKeys) {
    const oldest = map.keys().next();
    if (oldest.done) return;
    map.delete(oldest.value);
  }
}
