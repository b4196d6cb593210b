import type { Config } from '../../config.ts';
import {
  createFailureThrottle,
  type ThrottleRow,
  type ThrottleStore,
} from '../../lib/failure-throttle.ts';
import { rateLimited } from './client-api-error.ts';

export interface LicenseAttempt {
  applicationId: number;
  ipAddress: string;
}

/**
 * Failed licence-key attempts (issue 22), shared by every instance like the login throttles:
 * per IP across applications (one guesser trying every vendor), and per application (many
 * addresses guessing one vendor's keys). 20 and 200 in 15 minutes by default: at 80 bits a
 * key, that many guesses find nothing. Only unknown, used, banned and lapsed keys count.
 */
export function createLicenseThrottles(options: {
  store: ThrottleStore;
  limits: Pick<
    Config['clientApi'],
    'licenseIpFailureLimit' | 'licenseAppFailureLimit' | 'loginFailureWindowMs'
  >;
}) {
  const { store, limits } = options;
  const windowMs = limits.loginFailureWindowMs;
  const perIp = createFailureThrottle({
    store,
    name: 'license-ip',
    maxFailures: limits.licenseIpFailureLimit,
    windowMs,
  });
  const perApp = createFailureThrottle({
    store,
    name: 'license-app',
    maxFailures: limits.licenseAppFailureLimit,
    windowMs,
  });
  const appKey = (attempt: LicenseAttempt) => String(attempt.applicationId);
  return {
    /**
     * The database store's keys of the attempt's two counters, so a statement the call makes
     * anyway (login's user lookup) can read them; null with Redis.
     */
    storeKeysOf(attempt: LicenseAttempt): { ip: string; app: string } | null {
      const ip = perIp.storeKey(attempt.ipAddress);
      const app = perApp.storeKey(appKey(attempt));
      return ip === null || app === null ? null : { ip, app };
    },
    /**
     * Throws RATE_LIMITED (429 with Retry-After) once either counter is spent. From rows
     * already read when given (`prefetched`), else from the store.
     */
    async admit(
      attempt: LicenseAttempt,
      prefetched?: { nowMs: number; rows: { ip?: ThrottleRow; app?: ThrottleRow } },
    ): Promise<void> {
      const [ip, app] = prefetched
        ? [
            perIp.decideFromRow(prefetched.rows.ip, prefetched.nowMs),
            perApp.decideFromRow(prefetched.rows.app, prefetched.nowMs),
          ]
        : await Promise.all([perIp.check(attempt.ipAddress), perApp.check(appKey(attempt))]);
      if (!ip.isAllowed || !app.isAllowed) {
        throw rateLimited(
          Math.max(ip.retryAfterSeconds, app.retryAfterSeconds),
          'Too many failed licence key attempts',
        );
      }
    },
    async recordFailure(attempt: LicenseAttempt): Promise<void> {
      await Promise.all([
        perIp.recordFailure(attempt.ipAddress),
        perApp.recordFailure(appKey(attempt)),
      ]);
    },
  };
}
export type LicenseThrottles = ReturnType<typeof createLicenseThrottles>;
