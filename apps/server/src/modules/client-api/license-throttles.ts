import type { LiveThrottleRows, ThrottleStore } from '../../lib/failure-throttle.ts';
import { createGuessThrottles, type Guess } from '../../lib/guess-throttles.ts';
import { keyedDigest } from '../../lib/keyed-digest.ts';
import { rateLimited } from './client-api-error.ts';

export interface LicenseAttempt {
  applicationId: number;
  ipAddress: string;
  /** The key as sent; only a keyed digest of it is counted. */
  licenseKey: string;
}

/**
 * Refused licence keys (unknown, used, banned, lapsed), shared by every instance like the login
 * throttles, counted per address across applications (one guesser trying every vendor), per
 * address range, and per key tried in the application (a used key passed around): 20, 100 and
 * 10 in the failure window by default, when 429 answers. At 80 bits a key, that many guesses
 * find nothing. The application's own count (200) only slows addresses that already failed
 * (guess-throttles.ts): a buyer with a valid key from an address that never guessed is never
 * refused, however many strangers guess at the same application.
 */
export function createLicenseThrottles(options: {
  store: ThrottleStore;
  limits: Parameters<typeof createGuessThrottles>[0]['limits'];
  /** Derives the key of the keys' counter digests. */
  serverSecret: string;
  sleep?: (ms: number) => Promise<unknown>;
}) {
  const throttles = createGuessThrottles({
    store: options.store,
    // The address and application counters keep the names (and rows) they had.
    names: {
      address: 'license-ip',
      range: 'license-range',
      secret: 'license-key',
      scope: 'license-app',
    },
    limits: options.limits,
    ...(options.sleep ? { sleep: options.sleep } : {}),
  });
  const guessOf = (attempt: LicenseAttempt): Guess => ({
    ipAddress: attempt.ipAddress,
    // Blanks around a key are not part of it (licenseKeyDigest trims them too). A purpose of
    // its own: the counter's key never equals a stored key's lookup digest.
    secretDigest: `${attempt.applicationId}\n${keyedDigest(attempt.licenseKey.trim(), 'guess-throttle', options.serverSecret)}`,
    scope: String(attempt.applicationId),
  });
  return {
    /**
     * The database store's keys of the attempt's counters, so a statement the call makes
     * anyway (redeem's user lookup) can read them; null with Redis.
     */
    storeKeysOf: (attempt: LicenseAttempt): string[] | null =>
      throttles.storeKeysOf(guessOf(attempt)),
    /**
     * Throws RATE_LIMITED (429 with Retry-After) once a counter is spent; may wait first (the
     * application past its ceiling). From rows already read when given (`prefetched`).
     */
    async admit(attempt: LicenseAttempt, prefetched?: LiveThrottleRows): Promise<void> {
      const decision = await throttles.admit(guessOf(attempt), prefetched);
      if (!decision.isAllowed) {
        throw rateLimited(decision.retryAfterSeconds, 'Too many failed licence key attempts');
      }
    },
    async recordFailure(attempt: LicenseAttempt): Promise<void> {
      await throttles.recordFailure(guessOf(attempt));
    },
  };
}
export type LicenseThrottles = ReturnType<typeof createLicenseThrottles>;
