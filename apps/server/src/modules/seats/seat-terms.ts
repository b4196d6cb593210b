import type { FloatingTerms, HeldSubscription } from '../subscriptions/index.ts';

/**
 * The seats a holder's active floating subscriptions give together: their seats add up (a team
 * plan and an add-on of five more), the shortest lease and the longest borrow apply. Null when
 * none is floating: the login takes no seat, as before floating plans existed.
 */
export function seatTermsOf(held: HeldSubscription[], now: Date): FloatingTerms | null {
  const nowMs = now.getTime();
  let terms: FloatingTerms | null = null;
  for (const subscription of held) {
    const { floating } = subscription;
    if (!floating) continue;
    if (subscription.expiresAt !== null && subscription.expiresAt.getTime() <= nowMs) continue;
    terms = terms
      ? {
          seats: terms.seats + floating.seats,
          leaseMinutes: Math.min(terms.leaseMinutes, floating.leaseMinutes),
          maxBorrowDays: Math.max(terms.maxBorrowDays, floating.maxBorrowDays),
        }
      : { ...floating };
  }
  return terms;
}
