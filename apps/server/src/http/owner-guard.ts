import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { DatabaseConnection } from '../db/client.ts';
import { findOwnerBySession } from '../modules/auth/find-owner-by-session.ts';
import { sessionCookieName } from '../modules/auth/session-cookie.ts';
import type { Clock } from '../lib/clock.ts';
import { forbidden, unauthenticated } from '../lib/errors.ts';
import type { OwnerContext } from './request-context.ts';

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
 * Cookie-authenticated mutations from a foreign origin are refused (CSRF defence in depth
 * on top of SameSite=Lax).
 */
export function createOwnerGuard(deps: {
  config: Config;
  database: DatabaseConnection;
  clock: Clock;
}) {
  const cookieName = sessionCookieName(deps.config.isProduction);
  return async function requireOwner(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    if (mutatingMethods.has(request.method)) assertSameOrigin(request, deps.config);

    const sessionToken = request.cookies[cookieName];
    if (!sessionToken) throw unauthenticated();
    const ctx = { db: deps.database.db, log: request.log, clock: deps.clock };
    const account = await findOwnerBySession({ ctx, input: { sessionToken } });
    if (!account) throw unauthenticated('Session expired or invalid');

    const claimedAccountId = request.headers['x-account-id'];
    if (claimedAccountId !== undefined && claimedAccountId !== account.id) {
      throw forbidden('x-account-id does not match the signed-in account');
    }
    request.owner = { ...ctx, account };
  };
}

export function assertSameOrigin(request: FastifyRequest, config: Config): void {
  if (request.headers['sec-fetch-site'] === 'cross-site')
    throw forbidden('Cross-site request refused');
  const origin = request.headers.origin;
  if (origin === undefined) return;
  const ownOrigin = config.publicOrigin ?? `${request.protocol}://${request.host}`;
  if (origin !== ownOrigin) throw forbidden('Cross-origin request refused');
}
