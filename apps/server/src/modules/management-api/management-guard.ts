import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  managementMessages,
  permissionCatalogue,
  rateLimitHeaders,
  type ApiTokenScope,
} from '@latchkey/contracts';
import type { RateLimiterRes } from 'rate-limiter-flexible';
import type { Config } from '../../config.ts';
import type { DatabaseConnection } from '../../db/client.ts';
import type { OwnerContext } from '../../http/request-context.ts';
import { isRoutePermitted } from '../../http/route-permission.ts';
import { clientIpOf } from '../../lib/client-ip.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import { createFailureThrottle, type ThrottleStore } from '../../lib/failure-throttle.ts';
import type { ApiTokenRow } from '../../db/schema/index.ts';
import { authenticateApiToken, stampApiTokenUse, tokenInvalid } from './authenticate-api-token.ts';
import { managementRuleOf, type RouteTable } from './management-route-rules.ts';

/** A management call's context: its creator's owner context, and the token it came with. */
export interface ManagementContext extends OwnerContext {
  token: ApiTokenRow;
  ipAddress: string;
  /** What this scope's secrets are derived from (kept idempotent answers are sealed). */
  serverSecret: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the management guard on every management route; null elsewhere. */
    management: ManagementContext | null;
  }
}

const readMethods = new Set(['GET', 'HEAD']);

/** Wrong tokens one address may send in ten minutes before it is refused outright. */
export const TOKEN_GUESS_LIMIT = 30;
const TOKEN_GUESS_WINDOW_MS = 10 * 60_000;

/**
 * The management API's trust boundary, in the order that costs an attacker most and us least:
 * a bearer token (never a cookie: the scope has no CSRF surface), an address that has not been
 * guessing, the token itself (authenticate-api-token.ts), the per-token rate limit shared by
 * every instance, the route's scope, and the creator's own permission for the same act.
 */
export function createManagementGuard(deps: {
  config: Config;
  database: DatabaseConnection;
  clock: Clock;
  throttleStore: ThrottleStore;
  routeTable: RouteTable;
}) {
  const limit = deps.config.manageApiRateLimitPerMinute;
  const rateLimiter = deps.throttleStore.createLimiter({
    name: 'manage_api_token',
    points: limit,
    durationSeconds: 60,
  });
  const guesses = createFailureThrottle({
    store: deps.throttleStore,
    name: 'manage_api_guess',
    maxFailures: TOKEN_GUESS_LIMIT,
    windowMs: TOKEN_GUESS_WINDOW_MS,
  });

  return async function requireApiToken(request: FastifyRequest, reply: FastifyReply) {
    const token = bearerTokenOf(request.headers.authorization);
    if (token === null) throw tokenInvalid(managementMessages.tokenMissing);
    const ipAddress = clientIpOf(request);
    const guessing = await guesses.check(ipAddress);
    if (!guessing.isAllowed) throw rateLimited(reply, guessing.retryAfterSeconds);
    const ctx = { db: deps.database.db, log: request.log, clock: deps.clock };
    let caller;
    try {
      caller = await authenticateApiToken({
        ctx: { ...ctx, serverSecret: deps.config.serverSecret },
        input: { token, ipAddress },
      });
    } catch (error) {
      if (error instanceof AppError && error.code === 'TOKEN_INVALID') {
        await guesses.recordFailure(ipAddress);
      }
      throw error;
    }

    await spendRateLimit(reply, caller.token.id);
    // An unknown path under the prefix: the token was good, so the answer is the scope's 404.
    if (request.is404) return;
    const rule = managementRuleOf(deps.routeTable, request.method, request.routeOptions.url ?? '');
    if (!rule) {
      request.log.error({ route: request.routeOptions.url }, 'management route declares no rule');
      throw new AppError('INTERNAL', 'This route declares no scope');
    }
    if (!caller.token.scopes.includes(rule.scope)) throw scopeMissing(rule.scope);
    const creator = { role: caller.account.role, permissions: caller.account.permissions };
    if (!isRoutePermitted(creator, rule.permission)) {
      const missing = typeof rule.permission === 'string' ? rule.permission : rule.permission[0]!;
      throw new AppError(
        'PERMISSION_MISSING',
        managementMessages.permissionMissing(
          permissionCatalogue[missing as keyof typeof permissionCatalogue].label,
        ),
        { permission: missing },
      );
    }
    await stampApiTokenUse({
      ctx,
      input: { tokenId: caller.token.id, ipAddress, isWrite: !readMethods.has(request.method) },
    });
    const { id, name, prefix } = caller.token;
    request.management = {
      ...ctx,
      account: caller.account,
      actor: { token: { id, name, prefix }, ipAddress },
      token: caller.token,
      ipAddress,
      serverSecret: deps.config.serverSecret,
    };
  };

  async function spendRateLimit(reply: FastifyReply, tokenId: string): Promise<void> {
    let state: RateLimiterRes;
    let isAllowed = true;
    try {
      state = await rateLimiter.consume(tokenId);
    } catch (rejection) {
      if (rejection instanceof Error) throw rejection;
      state = rejection as RateLimiterRes;
      isAllowed = false;
    }
    const resetSeconds = Math.max(0, Math.ceil(state.msBeforeNext / 1000));
    reply.header(rateLimitHeaders.limit, String(limit));
    reply.header(rateLimitHeaders.remaining, String(Math.max(0, state.remainingPoints)));
    reply.header(rateLimitHeaders.reset, String(resetSeconds));
    if (!isAllowed) throw rateLimited(reply, Math.max(1, resetSeconds));
  }
}

function rateLimited(reply: FastifyReply, retryAfterSeconds: number): AppError {
  reply.header('retry-after', String(retryAfterSeconds));
  return new AppError('RATE_LIMITED', managementMessages.rateLimited);
}

/**
 * A second scope a route needs for some of its inputs (a keys import mints licence keys, so
 * it needs licenses:write beside the route's users:write).
 */
export function assertTokenScope(ctx: ManagementContext, scope: ApiTokenScope): void {
  if (!ctx.token.scopes.includes(scope)) throw scopeMissing(scope);
}

function scopeMissing(scope: ApiTokenScope): AppError {
  return new AppError('SCOPE_MISSING', managementMessages.scopeMissing(scope), { scope });
}

/** `Bearer <token>` (the scheme is case-insensitive, RFC 9110), or null. */
function bearerTokenOf(header: string | undefined): string | null {
  const match = /^Bearer +(\S+) *$/i.exec(header ?? '');
  return match ? match[1]! : null;
}
