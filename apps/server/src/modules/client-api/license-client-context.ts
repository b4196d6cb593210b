import type { ApplicationEvents } from '../../events/application-events.ts';
import type { ClientContext } from './client-context.ts';
import type { LicenseThrottles } from './license-throttles.ts';

/** What the verbs that take a licence key need beyond the client context. */
export interface LicenseClientContext extends ClientContext {
  licenseThrottles: LicenseThrottles;
  /** Derives the keys' digest key. */
  serverSecret: string;
  /** A redemption changes a user's standing: verify's caches must drop it. */
  applicationEvents: ApplicationEvents;
}
