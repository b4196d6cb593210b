import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import type { DatabaseConnection } from '../../db/client.ts';
import { assertSameOrigin } from '../../http/assert-same-origin.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { isRoutePermitted, missingPermissionMessage } from '../../http/route-permission.ts';
import { clientIpOf } from '../../lib/client-ip.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, forbidden, unauthenticated } from '../../lib/errors.ts';
import { findOwnerBySession } from './find-owner-by-session.ts';
import { sessionCookieName } from './session-cookie.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the owner guard on every owner route; null elsewhere. */
    owner: OwnerContext | null;
  }
}

const mutatingMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The trust boundary of the owner API. The owner is whoever the session cookie says; the
 * console's x-account-id header is only checked against it, never believed on its own.
 * Cookie-authenticated mutations must prove they come from the console (assertSameOrigin).
 * Then the account's role and permissions must allow the route (its definition's permission):
 * the one place where permissions are enforced, so hiding a button is never the only check.
 */
export function createOwnerGuard(deps: {
  config: Config;
  database: DatabaseConnection;
  clock: Clock;
}) {
  const cookieName = sessionCookieName(deps.config.isProduction);
  return async function requireOwner(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const sessionToken = request.cookies[cookieName];
    if (!sessionToken) throw unauthenticated();
    // Before the session lookup: a forged mutation should cost us no database round trip.
    if (mutatingMethods.has(request.method)) assertSameOrigin(request, deps.config);
    const ctx = { db: deps.database.db, log: request.log, clock: deps.clock };
    const account = await findOwnerBySession({ ctx, input: { sessionToken } });
    if (!account) throw unauthenticated('Session expired or invalid');

    const claimedAccountId = request.headers['x-account-id'];
    if (claimedAccountId !== undefined && claimedAccountId !== account.id) {
      throw forbidden('x-account-id does not match the signed-in account');
    }
    // HEAD is served by its GET route, whose definition Fastify keeps on both.
    const required = request.routeOptions.config.definition?.permission;
    if (required === undefined) {
      // Fail closed: a route registered without a definition, or whose definition names no
      // permission, is a programming error, not an open door.
      request.log.error({ route: request.routeOptions.url }, 'owner route declares no permission');
      throw new AppError('INTERNAL', 'This route declares no permission');
    }
    const userPermissions = { role: account.role, permissions: account.permissions };
    if (required !== 'signed_in' && !isRoutePermitted(userPermissions, required)) {
      throw forbidden(missingPermissionMessage(required));
    }
    request.owner = { ...ctx, account, actor: { token: null, ipAddress: clientIpOf(request) } };
  };
}
