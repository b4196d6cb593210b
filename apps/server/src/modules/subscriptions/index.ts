/**
 * What the subscriptions module offers the other modules, which import it from this file only (the
 * layer rules refuse their imports of its other files).
 */
export {
  endSessionsIfUnlicensed,
  extendSubscription,
  stackedExpiry,
  takeBackGrant,
} from './extend-subscription.ts';
export {
  type FloatingTerms,
  type HeldSubscription,
  heldMeterUsageJson,
  heldSubscriptionsJson,
  licensedUntilMs,
  licensingAnswer,
  type LicensingAnswer,
  licensingOf,
  parseHeldSubscriptions,
  type RawHeldSubscription,
  readHeldSubscriptions,
} from './held-subscriptions.ts';
export {
  activeEntitlements,
  deleteSubscription,
  grantSubscription,
  listUserMeters,
  listUserSubscriptions,
  readSubscriptions,
  readSubscriptionsOfUsers,
  updateSubscription,
} from './user-subscriptions.ts';
export { readUserMeters } from './read-user-meters.ts';
export { subscriptionRoutes } from './routes.ts';
export {
  hasPendingUpdatesWindow,
  isPastUpdatesWindow,
  newUpdatesWindow,
  type PlanUpdatesWindow,
  stackedUpdatesWindow,
  startPendingUpdatesWindows,
  updatesUntilOf,
} from './updates-window.ts';
