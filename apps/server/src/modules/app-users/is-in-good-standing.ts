/**
 * An end user in good standing: active, not paused, not expired. The owner side ends the
 * sessions of users out of it, downloads and the portal refuse them; the client API's
 * standingRefusal (client-api/client-outcomes.ts) checks the same, with a message for each.
 */
export function isInGoodStanding(
  user: { isActive: boolean; isPaused: boolean; expiresAt: Date | null },
  now: Date,
): boolean {
  return (
    user.isActive &&
    !user.isPaused &&
    (user.expiresAt === null || user.expiresAt.getTime() > now.getTime())
  );
}
