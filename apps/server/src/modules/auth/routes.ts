import type { FastifyInstance } from 'fastify';
import {
  currentUserSchema,
  firebaseLoginRequestSchema,
  firebaseLoginResponseSchema,
  type FirebaseLoginResponse,
} from '@latchkey/contracts';
import type { AppDependencies } from '../../http/app-dependencies.ts';
import { assertSameOrigin } from '../../http/assert-same-origin.ts';
import { parseInput } from '../../http/parse-input.ts';
import { ok } from '../../http/route-contract.ts';
import {
  registerRoutes,
  routeDefiner,
  withInputsLeftToHandlers,
} from '../../http/route-definition.ts';
import { endOwnerSession } from './end-owner-session.ts';
import { sessionCookieName, sessionCookieOptions } from './session-cookie.ts';
import { signInWithFirebase } from './sign-in-with-firebase.ts';
import { toCurrentUser } from './to-current-user.ts';

const definePublicRoute = routeDefiner<AppDependencies>();
const defineOwnerRoute = routeDefiner<void>();

/**
 * Public auth routes: sign-in and sign-out (they run without an existing session). Their
 * handlers read their own inputs: sign-in checks the Origin before it reads the body.
 */
export const publicAuthRoutes = [
  definePublicRoute({
    method: 'POST',
    path: '/api/auth/firebase-login',
    caller: 'public',
    tag: 'Owner sign-in',
    summary: 'Sign in with a Firebase ID token',
    description:
      'Sets the session cookie. Refused (403) unless it comes from the console\u2019s own origin.',
    body: firebaseLoginRequestSchema,
    responses: { 200: ok(firebaseLoginResponseSchema) },
    errors: [403],
    handle: async ({ request, reply }, deps) => {
      const { config } = deps;
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
        sessionCookieName(config.isProduction),
        result.sessionToken,
        sessionCookieOptions(config.isProduction, config.ownerSessionMs),
      );
      return {
        success: true,
        message: 'Login successful',
        account_id: result.account.id,
      } satisfies FirebaseLoginResponse;
    },
  }),
  definePublicRoute({
    method: 'GET',
    path: '/api/logout',
    caller: 'public',
    tag: 'Owner sign-in',
    summary: 'Sign out',
    responses: { 302: { description: 'Session ended and cookie cleared; redirects to /.' } },
    handle: async ({ request, reply }, deps) => {
      const { config } = deps;
      const cookieName = sessionCookieName(config.isProduction);
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
    },
  }),
];

/** Routes behind the owner guard. */
export const ownerAuthRoutes = [
  defineOwnerRoute({
    method: 'GET',
    path: '/api/auth/user',
    permission: 'signed_in',
    caller: 'owner',
    tag: 'Owner sign-in',
    summary: 'The signed-in owner',
    responses: { 200: ok(currentUserSchema) },
    handle: async ({ request }) => toCurrentUser(request.owner!.account),
  }),
];

/** Public auth routes: sign-in and sign-out (they run without an existing session). */
export function registerPublicAuthRoutes(app: FastifyInstance, deps: AppDependencies): void {
  registerRoutes(app, withInputsLeftToHandlers(publicAuthRoutes), deps);
}

/** Routes behind the owner guard. */
export function registerOwnerAuthRoutes(app: FastifyInstance): void {
  registerRoutes(app, ownerAuthRoutes, undefined);
}
