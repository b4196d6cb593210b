import { describe, expect, it } from 'vitest';
import { createManualClock } from './clock.ts';
import { createFailureLimiter, createRequestRateLimiter } from './rate-limiter.ts';

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

describe('failure limiter (sliding window)', () => {
  it('refuses after maxFailures within the window until the oldest leaves it', () => {
    const clock = createManualClock();
    const limiter = createFailureLimiter({ maxFailures: 10, windowMs: 15 * 60_000, clock });
    for (let index = 0; index < 10; index += 1) {
      expect(limiter.check('k').isAllowed).toBe(true);
      limiter.recordFailure('k');
      clock.advance(60_000);
    }
    // First failure at 0 min, tenth at 9 min, now 10 min: the first leaves at 15 min.
    expect(limiter.check('k')).toEqual({ isAllowed: false, retryAfterSeconds: 300 });
    clock.advance(300_000 - 1);
    expect(limiter.check('k').isAllowed).toBe(false);
    clock.advance(1);
    expect(limiter.check('k').isAllowed).toBe(true);
    // One more failure fills the window again.
    limiter.recordFailure('k');
    expect(limiter.check('k')).toEqual({ isAllowed: false, retryAfterSeconds: 60 });
  });

  it('forgets a key on reset and after a quiet window', () => {
    const clock = createManualClock();
    const limiter = createFailureLimiter({ maxFailures: 2, windowMs: 1000, clock });
    limiter.recordFailure('k');
    limiter.recordFailure('k');
    expect(limiter.check('k').isAllowed).toBe(false);
    limiter.reset('k');
    expect(limiter.check('k').isAllowed).toBe(true);
    limiter.recordFailure('k');
    clock.advance(1000);
    expect(limiter.check('k').isAllowed).toBe(true);
    expect(limiter.size).toBe(0);
  });

  it('keeps memory bounded', () => {
    const clock = createManualClock();
    const limiter = createFailureLimiter({ maxFailures: 3, windowMs: 60_000, clock, maxKeys: 100 });
    for (let index = 0; index < 1000; index += 1) limiter.recordFailure(`user-${index}`);
    expect(limiter.size).toBe(100);
    for (let index = 0; index < 10; index += 1) limiter.recordFailure('one');
    expect(limiter.size).toBe(100);
  });
});
