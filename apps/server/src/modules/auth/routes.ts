import type { RouteDefinition } from '../../http/route-definition.ts';
import type { FastifyInstance } from 'fastify';
import { firebaseLoginRequestSchema, type FirebaseLoginResponse } from '@latchkey/contracts';
import type { AppDependencies } from '../../http/app-dependencies.ts';
import { assertSameOrigin } from '../../http/assert-same-origin.ts';
import { parseInput } from '../../http/parse-input.ts';
import { endOwnerSession } from './end-owner-session.ts';
import { sessionCookieName, sessionCookieOptions } from './session-cookie.ts';
import { signInWithFirebase } from './sign-in-with-firebase.ts';
import { toCurrentUser } from './to-current-user.ts';

/** Public auth routes: sign-in and sign-out (they run without an existing session). */
export function registerPublicAuthRoutes(app: FastifyInstance, deps: AppDependencies): void {
  const { config } = deps;
  const cookieName = sessionCookieName(config.isProduction);

  app.post('/api/auth/firebase-login', async (request, reply) => {
    // A foreign page must not be able to sign a visitor into its own account (login CSRF).
    assertSameOrigin(request, config);
    const input = parseInput(firebaseLoginRequestSchema, request.body);
    const result = await signInWithFirebase({
      ctx: {
        db: deps.database.db,
        log: request.log,
        clock: deps.clock,
        identity: deps.identity,
        sessionLifetimeMs: config.ownerSessionMs,
        defaultAccountPermissions: config.defaultAccountPermissions,
      },
      input: { ...input, userAgent: request.headers['user-agent'] ?? null },
    });
    if (!result.success) {
      return { success: false, message: result.message } satisfies FirebaseLoginResponse;
    }
    reply.setCookie(
      cookieName,
      result.sessionToken,
      sessionCookieOptions(config.isProduction, config.ownerSessionMs),
    );
    return {
      success: true,
      message: 'Login successful',
      account_id: result.account.id,
    } satisfies FirebaseLoginResponse;
  });

  app.get('/api/logout', async (request, reply) => {
    const sessionToken = request.cookies[cookieName];
    if (sessionToken) {
      await endOwnerSession({
        ctx: { db: deps.database.db, log: request.log, clock: deps.clock },
        input: { sessionToken },
      });
    }
    reply.clearCookie(cookieName, {
      path: '/',
      secure: config.isProduction,
      httpOnly: true,
      sameSite: 'lax',
    });
    return reply.redirect('/', 302);
  });
}

/** Routes behind the owner guard. */
export function registerOwnerAuthRoutes(app: FastifyInstance): void {
  app.get('/api/auth/user', async (request) => toCurrentUser(request.owner!.account));
}

/** The module's routes defined once (route-definition.ts); the rest are registered above. */
export const publicAuthRoutes: readonly RouteDefinition[] = [];

/** The module's routes defined once (route-definition.ts); the rest are registered above. */
export const ownerAuthRoutes: readonly RouteDefinition[] = [];
