import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { ActivityRecorder } from '../activity/index.ts';
import type { ApplicationEvents } from '../../events/application-events.ts';
import type { LicenseThrottles, LoginStatements, LoginThrottles } from '../client-api/index.ts';
import type { PortalApplication } from './load-portal.ts';

/**
 * What every portal verb receives: the portal's application (in place of an owner or an API
 * key), the visitor's address, and login's own throttles and statements, so signing in here
 * is throttled exactly as a client-API login is, against the same counters.
 */
export interface PortalContext {
  portal: PortalApplication;
  ipAddress: string;
  db: Database;
  log: FastifyBaseLogger;
  clock: Clock;
  serverSecret: string;
  activity: ActivityRecorder;
  applicationEvents: ApplicationEvents;
  loginThrottles: LoginThrottles;
  licenseThrottles: LicenseThrottles;
  statements: LoginStatements;
}

/** After a change to the user is committed: verify's and the sessions' caches drop them. */
export function announcePortalChange(ctx: PortalContext, appUserId: string): Promise<void> {
  return ctx.applicationEvents.emitChange(
    { kind: 'end-user-changed', applicationId: ctx.portal.id, userId: appUserId },
    ctx.log,
  );
}
