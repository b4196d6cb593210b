import type { Config } from '../../config.ts';
import {
  createFailureThrottle,
  type ThrottleRow,
  type ThrottleStore,
} from '../../lib/failure-throttle.ts';
import { rateLimited } from './client-api-error.ts';

interface LoginAttempt {
  applicationId: number;
  username: string;
  ipAddress: string;
}

const refuse = (retryAfterSeconds: number) =>
  rateLimited(retryAfterSeconds, 'Too many failed login attempts');

/**
 * Failed-login counters, shared by every instance: per application, username and IP; per
 * application and username from any IP (except the user's last login IP, so guessing from
 * elsewhere cannot lock the rightful user out); per application and IP across usernames
 * (password spraying). Only wrong credentials count.
 */
export function createLoginThrottles(options: {
  store: ThrottleStore;
  limits: Pick<
    Config['clientApi'],
    | 'loginFailureLimit'
    | 'loginUsernameFailureLimit'
    | 'loginIpFailureLimit'
    | 'loginFailureWindowMs'
  >;
}) {
  const { store, limits } = options;
  const windowMs = limits.loginFailureWindowMs;
  const perUserAndIp = createFailureThrottle({
    store,
    name: 'login-user-ip',
    maxFailures: limits.loginFailureLimit,
    windowMs,
  });
  const perUser = createFailureThrottle({
    store,
    name: 'login-user',
    maxFailures: limits.loginUsernameFailureLimit,
    windowMs,
  });
  const perIp = createFailureThrottle({
    store,
    name: 'login-ip',
    maxFailures: limits.loginIpFailureLimit,
    windowMs,
  });
  const userAndIpKey = (attempt: LoginAttempt) =>
    `${attempt.applicationId}\n${attempt.username}\n${attempt.ipAddress}`;
  const userKey = (attempt: LoginAttempt) => `${attempt.applicationId}\n${attempt.username}`;
  const ipKey = (attempt: LoginAttempt) => `${attempt.applicationId}\n${attempt.ipAddress}`;
  /** The user's last login IP is exempt from the per-username counter, both ways. */
  const isPerUserExempt = (attempt: LoginAttempt, lastLoginIp: string | null) =>
    lastLoginIp !== null && lastLoginIp === attempt.ipAddress;

  return {
    /**
     * The three counters' rows in the database store (`rate_limits.key`), so login can read
     * them in its user lookup instead of three more round trips; null with Redis.
     */
    storeKeysOf(attempt: LoginAttempt): PrefetchKeys | null {
      const userAndIp = perUserAndIp.storeKey(userAndIpKey(attempt));
      const ip = perIp.storeKey(ipKey(attempt));
      const user = perUser.storeKey(userKey(attempt));
      return userAndIp === null || ip === null || user === null ? null : { userAndIp, ip, user };
    },
    /**
     * The checks that need no user, side by side (one round trip's wait), or from rows
     * already read. Throws RATE_LIMITED; otherwise says whether a success has a
     * per-IP-and-username count to clear.
     */
    async admitBeforeLookup(
      attempt: LoginAttempt,
      prefetched?: PrefetchedRows,
    ): Promise<{ hasFailuresToClear: boolean }> {
      const [userAndIp, ip] = prefetched
        ? [
            perUserAndIp.decideFromRow(prefetched.rows.userAndIp, prefetched.nowMs),
            perIp.decideFromRow(prefetched.rows.ip, prefetched.nowMs),
          ]
        : await Promise.all([
            perUserAndIp.check(userAndIpKey(attempt)),
            perIp.check(ipKey(attempt)),
          ]);
      if (!userAndIp.isAllowed || !ip.isAllowed) {
        throw refuse(Math.max(userAndIp.retryAfterSeconds, ip.retryAfterSeconds));
      }
      return { hasFailuresToClear: userAndIp.hasFailures };
    },
    /** The per-username check, once the user's last login IP is known (null: none, or no user). */
    async admitForUser(
      attempt: LoginAttempt,
      lastLoginIp: string | null,
      prefetched?: PrefetchedRows,
    ): Promise<void> {
      if (isPerUserExempt(attempt, lastLoginIp)) return;
      const user = prefetched
        ? perUser.decideFromRow(prefetched.rows.user, prefetched.nowMs)
        : await perUser.check(userKey(attempt));
      if (!user.isAllowed) throw refuse(user.retryAfterSeconds);
    },
    async recordFailure(attempt: LoginAttempt, lastLoginIp: string | null): Promise<void> {
      await Promise.all([
        perUserAndIp.recordFailure(userAndIpKey(attempt)),
        perIp.recordFailure(ipKey(attempt)),
        isPerUserExempt(attempt, lastLoginIp) ? null : perUser.recordFailure(userKey(attempt)),
      ]);
    },
    async recordSuccess(attempt: LoginAttempt): Promise<void> {
      await perUserAndIp.reset(userAndIpKey(attempt));
    },
  };
}
export type LoginThrottles = ReturnType<typeof createLoginThrottles>;

/** The database store's keys of one attempt's three counters. */
export interface PrefetchKeys {
  userAndIp: string;
  ip: string;
  user: string;
}

/** Their live rows (expired ones left out), read at `nowMs` (wall-clock epoch ms). */
export interface PrefetchedRows {
  nowMs: number;
  rows: Partial<Record<keyof PrefetchKeys, ThrottleRow>>;
}
