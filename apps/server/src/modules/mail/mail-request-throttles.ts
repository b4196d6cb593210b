import { RateLimiterRes } from 'rate-limiter-flexible';
import type { MailRequestLimits } from '../../config.ts';
import type { ThrottleStore } from '../../lib/failure-throttle.ts';

/** The request may go on (`mail`), may go on without mail, or is refused for a while. */
export type MailRequestVerdict =
  { kind: 'mail' } | { kind: 'no-mail' } | { kind: 'refused'; retryAfterSeconds: number };

/**
 * The budgets of the requests that mail an end user (a reset link), in the shared store so
 * every instance counts together. Per client address: past it the request is refused (429),
 * as other throttles are. Per named account (username or address, known or not) and per
 * application: past either, the request is answered as usual but no mail goes out, so the
 * throttle says nothing about whether the account exists and a stranger cannot fill an
 * inbox or spend the vendor's sending reputation.
 */
export function createMailRequestThrottles(options: {
  store: ThrottleStore;
  limits: MailRequestLimits;
}) {
  const { store, limits } = options;
  const hour = 3600;
  const perAddress = store.createLimiter({
    name: 'mail-ip',
    points: limits.perAddressPerHour,
    durationSeconds: hour,
  });
  const perTarget = store.createLimiter({
    name: 'mail-target',
    points: limits.perTargetPerHour,
    durationSeconds: hour,
  });
  const perApplication = store.createLimiter({
    name: 'mail-app',
    points: limits.perApplicationPerHour,
    durationSeconds: hour,
  });
  /** true when the budget had room; a refusal of the store's own (Redis down) is thrown. */
  const spend = async (limiter: typeof perAddress, key: string): Promise<RateLimiterRes | null> => {
    try {
      await limiter.consume(key);
      return null;
    } catch (refusal) {
      if (refusal instanceof RateLimiterRes) return refusal;
      throw refusal;
    }
  };

  return {
    async admit(request: {
      applicationId: number;
      ipAddress: string;
      /** What the request names (a username or an address), as typed. */
      target: string;
    }): Promise<MailRequestVerdict> {
      const refused = await spend(perAddress, `${request.applicationId}\n${request.ipAddress}`);
      if (refused) {
        return {
          kind: 'refused',
          retryAfterSeconds: Math.max(1, Math.ceil(refused.msBeforeNext / 1000)),
        };
      }
      const target = request.target.trim().toLowerCase();
      if (await spend(perTarget, `${request.applicationId}\n${target}`)) return { kind: 'no-mail' };
      if (await spend(perApplication, String(request.applicationId))) return { kind: 'no-mail' };
      return { kind: 'mail' };
    },
  };
}

export type MailRequestThrottles = ReturnType<typeof createMailRequestThrottles>;
