import type { Config } from '../config.ts';
import type { DatabaseConnection } from '../db/client.ts';
import type { ActivityEvents } from '../events/activity-events.ts';
import type { ApplicationEvents } from '../events/application-events.ts';
import type { OwnerEventHub } from '../events/owner-event-hub.ts';
import type { IdentityVerifier } from '../identity/identity-verifier.ts';
import type { Clock } from '../lib/clock.ts';

/**
 * What the composition root (app.ts) hands to every module's routes: the configuration, the
 * database, the identity verifier, the clock and the in-process event hubs. It lives below
 * the modules, so a module names what it needs without importing the root.
 */
export interface AppDependencies {
  config: Config;
  database: DatabaseConnection;
  identity: IdentityVerifier;
  clock: Clock;
  /** Fired after an application is updated or deleted, so caches of it can drop it. */
  applicationEvents: ApplicationEvents;
  /** Fired for every client-API event recorded in the activity log (webhooks subscribe). */
  activityEvents: ActivityEvents;
  /** Events for the owners' open consoles (their live stream). */
  ownerEvents: OwnerEventHub;
}
