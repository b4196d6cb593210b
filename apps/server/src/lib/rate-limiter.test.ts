import { describe, expect, it } from 'vitest';
import { createManualClock } from './clock.ts';
import { createRequestRateLimiter } from './rate-limiter.ts';

describe('request rate limiter (token bucket)', () => {
  it('allows the limit in a burst, then refills at limit per window', () => {
    const clock = createManualClock();
    const limiter = createRequestRateLimiter({ limit: 600, windowMs: 60_000, clock });
    for (let index = 0; index < 600; index += 1) expect(limiter.take('a').isAllowed).toBe(true);
    expect(limiter.take('a')).toEqual({ isAllowed: false, retryAfterSeconds: 1 });
    // 10 per second come back.
    clock.advance(1000);
    for (let index = 0; index < 10; index += 1) expect(limiter.take('a').isAllowed).toBe(true);
    expect(limiter.take('a').isAllowed).toBe(false);
    // Other keys have their own buckets.
    expect(limiter.take('b').isAllowed).toBe(true);
  });

  it('sustains the configured rate over minutes', () => {
    const clock = createManualClock();
    const limiter = createRequestRateLimiter({ limit: 300, windowMs: 60_000, clock });
    let allowed = 0;
    for (let second = 0; second < 180; second += 1) {
      for (let index = 0; index < 20; index += 1) if (limiter.take('nat').isAllowed) allowed += 1;
      clock.advance(1000);
    }
    // Three minutes at 300/min, plus the initial burst of 300.
    expect(allowed).toBeGreaterThanOrEqual(900);
    expect(allowed).toBeLessThanOrEqual(1200);
  });

  it('says how long to wait when the limit is low', () => {
    const clock = createManualClock();
    const limiter = createRequestRateLimiter({ limit: 2, windowMs: 60_000, clock });
    limiter.take('a');
    limiter.take('a');
    expect(limiter.take('a')).toEqual({ isAllowed: false, retryAfterSeconds: 30 });
  });

  it('keeps at most maxKeys keys, dropping the least recently used', () => {
    const clock = createManualClock();
    const limiter = createRequestRateLimiter({ limit: 1, windowMs: 60_000, clock, maxKeys: 3 });
    for (const key of ['a', 'b', 'c']) limiter.take(key);
    limiter.take('a'); // refused, but now the most recently used
    limiter.take('d');
    expect(limiter.size).toBe(3);
    expect(limiter.take('a').isAllowed).toBe(false); // still remembered
    expect(limiter.take('b').isAllowed).toBe(true); // evicted, so forgotten
  });
});
