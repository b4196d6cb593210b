import type { RouteDefinition } from '../../http/route-definition.ts';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  PORTAL_SESSION_ENDED,
  portalDeviceParamsSchema,
  portalParamsSchema,
  portalPasswordRequestSchema,
  portalRedeemRequestSchema,
  portalSignInRequestSchema,
  type PortalAccount,
  type PortalInfo,
} from '@latchkey/contracts';
import type { AppDependencies } from '../../http/app-dependencies.ts';
import { assertSameOrigin } from '../../http/assert-same-origin.ts';
import { parseInput } from '../../http/parse-input.ts';
import { clientIpOf } from '../../lib/client-ip.ts';
import { AppError, unauthenticated } from '../../lib/errors.ts';
import { createThrottleStore } from '../../lib/failure-throttle.ts';
import { createOccasionalWarning } from '../../lib/occasional-warning.ts';
import type { ActivityRecorder } from '../activity/index.ts';
import {
  ClientApiError,
  createLicenseThrottles,
  createLoginStatements,
  createLoginThrottles,
} from '../client-api/index.ts';
import { isInGoodStanding } from '../app-users/index.ts';
import { changePortalPassword } from './change-portal-password.ts';
import { loadPortal } from './load-portal.ts';
import { portalCookieName, portalCookieOptions } from './portal-cookie.ts';
import type { PortalContext } from './portal-context.ts';
import { endPortalSession, findPortalSession, type FoundPortalSession } from './portal-sessions.ts';
import { readPortalAccount } from './read-portal-account.ts';
import { redeemPortalLicense } from './redeem-portal-license.ts';
import { releasePortalDevice } from './release-portal-device.ts';
import { signInToPortal } from './sign-in-to-portal.ts';

/**
 * The end-user portal: its page, `/portal/:publicId` (a bundle of its own, built
 * beside the console's), and its API, `/api/portal/:publicId/…`, authenticated by the portal's
 * own cookie only. No owner guard runs here and the owner's cookie is never read; the owner
 * guard never reads this one. Mutations refuse a foreign Origin, as the owner API's do.
 */
export async function registerPortalRoutes(
  app: FastifyInstance,
  deps: AppDependencies & { activity: ActivityRecorder },
): Promise<void> {
  const { config, database, clock } = deps;
  const cookieName = portalCookieName(config.isProduction);
  // Login's throttle counters, in the same store: a guess here counts where a client-API
  // guess does, and the other way round.
  const throttleStore = createThrottleStore({
    redisUrl: config.redisUrl,
    database,
    onRedisError: createOccasionalWarning({
      intervalMs: 60_000,
      clock,
      write: (error, suppressed) =>
        app.log.warn({ err: error, suppressed }, 'portal throttle store (Redis) unavailable'),
    }),
  });
  app.addHook('onClose', () => throttleStore.close());
  const loginThrottles = createLoginThrottles({ store: throttleStore, limits: config.clientApi });
  const licenseThrottles = createLicenseThrottles({
    store: throttleStore,
    limits: config.clientApi,
    serverSecret: config.serverSecret,
  });
  const statements = createLoginStatements(database);

  const contextOf = async (request: FastifyRequest): Promise<PortalContext> => {
    const { publicId } = parseInput(portalParamsSchema, request.params);
    return {
      portal: await loadPortal(database.db, publicId),
      ipAddress: clientIpOf(request),
      db: database.db,
      log: request.log,
      clock,
      serverSecret: config.serverSecret,
      activity: deps.activity,
      applicationEvents: deps.applicationEvents,
      loginThrottles,
      licenseThrottles,
      statements,
    };
  };

  /** The signed-in end user; a session of a user since paused or expired ends here. */
  const signedIn = async (
    request: FastifyRequest,
    reply: FastifyReply,
    ctx: PortalContext,
  ): Promise<FoundPortalSession> => {
    const token = request.cookies[cookieName];
    const session = token
      ? await findPortalSession(ctx.db, {
          applicationId: ctx.portal.id,
          token,
          now: ctx.clock.now(),
          serverSecret: config.serverSecret,
        })
      : undefined;
    if (session && isInGoodStanding(session.user, ctx.clock.now())) return session;
    if (session) await endPortalSession(ctx.db, session.sessionId);
    reply.clearCookie(cookieName, portalCookieOptions(config.isProduction, ctx.portal.publicId));
    throw unauthenticated(PORTAL_SESSION_ENDED);
  };

  const mutating = async (request: FastifyRequest, reply: FastifyReply) => {
    assertSameOrigin(request, config);
    const ctx = await contextOf(request);
    return { ctx, session: await signedIn(request, reply, ctx) };
  };

  await app.register(async (portalScope) => {
    // Throttled guesses answer 429 with Retry-After, in the owner API's error shape.
    portalScope.setErrorHandler((error, request, reply) => {
      if (error instanceof ClientApiError && error.statusCode === 429) {
        return reply
          .status(429)
          .header('retry-after', String(error.retryAfterSeconds ?? 60))
          .send({ message: error.message, code: 'RATE_LIMITED' });
      }
      throw error;
    });
    portalScope.addHook('onSend', async (_request, reply, payload) => {
      // Account data: never in a shared cache.
      reply.header('cache-control', 'no-store');
      return payload;
    });

    portalScope.get('/api/portal/:publicId', async (request): Promise<PortalInfo> => {
      const { portal } = await contextOf(request);
      return { name: portal.name, publicId: portal.publicId };
    });

    portalScope.post('/api/portal/:publicId/session', async (request, reply) => {
      assertSameOrigin(request, config);
      const ctx = await contextOf(request);
      const input = parseInput(portalSignInRequestSchema, request.body);
      const { token } = await signInToPortal({ ctx, input });
      reply.setCookie(
        cookieName,
        token,
        portalCookieOptions(config.isProduction, ctx.portal.publicId),
      );
      const session = await findPortalSession(ctx.db, {
        applicationId: ctx.portal.id,
        token,
        now: ctx.clock.now(),
        serverSecret: config.serverSecret,
      });
      if (!session) throw new AppError('INTERNAL', 'portal session not found after sign-in');
      return reply.status(201).send(await readPortalAccount({ ctx, user: session.user }));
    });

    portalScope.delete('/api/portal/:publicId/session', async (request, reply) => {
      const { ctx, session } = await mutating(request, reply);
      await endPortalSession(ctx.db, session.sessionId);
      reply.clearCookie(cookieName, portalCookieOptions(config.isProduction, ctx.portal.publicId));
      return reply.status(204).send();
    });

    portalScope.get(
      '/api/portal/:publicId/account',
      async (request, reply): Promise<PortalAccount> => {
        const ctx = await contextOf(request);
        const session = await signedIn(request, reply, ctx);
        return readPortalAccount({ ctx, user: session.user });
      },
    );

    portalScope.delete(
      '/api/portal/:publicId/devices/:deviceId',
      async (request, reply): Promise<PortalAccount> => {
        const { deviceId } = parseInput(portalDeviceParamsSchema, request.params);
        const { ctx, session } = await mutating(request, reply);
        await releasePortalDevice({ ctx, user: session.user, deviceId });
        return readPortalAccount({
          ctx,
          user: { ...session.user, lastSelfResetAt: ctx.clock.now() },
        });
      },
    );

    portalScope.post(
      '/api/portal/:publicId/redeem',
      async (request, reply): Promise<PortalAccount> => {
        const { ctx, session } = await mutating(request, reply);
        const { licenseKey } = parseInput(portalRedeemRequestSchema, request.body);
        await redeemPortalLicense({ ctx, user: session.user, licenseKey });
        return readPortalAccount({ ctx, user: session.user });
      },
    );

    portalScope.post('/api/portal/:publicId/password', async (request, reply) => {
      const { ctx, session } = await mutating(request, reply);
      const input = parseInput(portalPasswordRequestSchema, request.body);
      await changePortalPassword({
        ctx,
        session,
        input,
        minimumLength: config.endUserPasswordMinLength,
      });
      return reply.status(204).send();
    });

    // The page: the portal's own HTML (its bundle, no console script, no Firebase). A portal
    // that is off, or an unknown id, is a 404 with the same page, which says so.
    portalScope.get('/portal/:publicId', async (request, reply) => {
      const distDir = config.consoleDistDir;
      const pagePath = distDir ? join(distDir, 'portal.html') : null;
      if (!distDir || !pagePath || !existsSync(pagePath)) {
        throw new AppError('NOT_FOUND', 'The portal page is not built: run `npm run build`');
      }
      let isFound = true;
      try {
        await contextOf(request);
      } catch {
        isFound = false;
      }
      return reply
        .status(isFound ? 200 : 404)
        .header('cache-control', 'no-cache')
        .sendFile('portal.html', distDir);
    });
  });
}

/** The module's routes defined once (route-definition.ts); the rest are registered above. */
export const portalRoutes: readonly RouteDefinition[] = [];
