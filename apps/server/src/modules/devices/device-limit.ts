import type { HeldSubscription } from '../subscriptions/index.ts';

/**
 * The devices a user may bind: the application's limit, or the largest of their active plans'
 * when that is larger. A lapsed plan raises nothing.
 */
export function deviceLimitOf(
  applicationMaxDevices: number,
  held: readonly Pick<HeldSubscription, 'expiresAt' | 'maxDevices'>[],
  now: Date,
): number {
  let limit = applicationMaxDevices;
  const nowMs = now.getTime();
  for (const subscription of held) {
    const isActive = subscription.expiresAt === null || subscription.expiresAt.getTime() > nowMs;
    if (isActive && subscription.maxDevices !== null && subscription.maxDevices > limit) {
      limit = subscription.maxDevices;
    }
  }
  return limit;
}
