import { join } from 'node:path';
import { existsSync } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  FORGOT_PASSWORD_ANSWER,
  END_USER_MAIL_UNAVAILABLE,
  PORTAL_SESSION_ENDED,
  portalForgotPasswordRequestSchema,
  portalForgotPasswordResponseSchema,
  portalAccountSchema,
  portalDeviceParamsSchema,
  portalInfoSchema,
  portalParamsSchema,
  portalPasswordRequestSchema,
  portalPasswordResetRequestSchema,
  portalEmailVerifyRequestSchema,
  portalStopRemindersQuerySchema,
  portalEmailVerifiedSchema,
  portalRedeemRequestSchema,
  portalOfflineActivationRequestSchema,
  portalOfflineActivationSchema,
  portalSignInRequestSchema,
  type PortalAccount,
  type PortalInfo,
} from '@latchkey/contracts';
import type { Config } from '../../config.ts';
import type { AppDependencies } from '../../http/app-dependencies.ts';
import { assertSameOrigin } from '../../http/assert-same-origin.ts';
import { parseInput } from '../../http/parse-input.ts';
import { ok } from '../../http/route-contract.ts';
import {
  registerRoutes,
  routeDefiner,
  withInputsLeftToHandlers,
} from '../../http/route-definition.ts';
import { clientIpOf } from '../../lib/client-ip.ts';
import { AppError, unauthenticated } from '../../lib/errors.ts';
import { createThrottleStore } from '../../lib/failure-throttle.ts';
import { createOccasionalWarning } from '../../lib/occasional-warning.ts';
import type { ActivityRecorder } from '../activity/index.ts';
import {
  ClientApiError,
  rateLimited,
  createLicenseThrottles,
  createLoginStatements,
  createLoginThrottles,
} from '../client-api/index.ts';
import { isInGoodStanding } from '../app-users/index.ts';
import {
  createMailRequestThrottles,
  requestPasswordResetMail,
  type MailOutbox,
  type MailRequestThrottles,
} from '../mail/index.ts';
import { activateOffline } from './activate-offline.ts';
import { changePortalPassword } from './change-portal-password.ts';
import { loadPortal } from './load-portal.ts';
import { portalCookieName, portalCookieOptions } from './portal-cookie.ts';
import type { PortalContext } from './portal-context.ts';
import { endPortalSession, findPortalSession, type FoundPortalSession } from './portal-sessions.ts';
import { readPortalAccount } from './read-portal-account.ts';
import { redeemPortalLicense } from './redeem-portal-license.ts';
import { releasePortalDevice } from './release-portal-device.ts';
import { resetPasswordWithLink } from './reset-password-with-link.ts';
import { confirmEmailWithLink } from './confirm-email-with-link.ts';
import { stopExpiryReminders } from './stop-expiry-reminders.ts';
import { signInToPortal } from './sign-in-to-portal.ts';

/**
 * What the portal's handlers are given: its cookie's name and the checks they run, each route
 * in its own order (a mutation's Origin, then the portal, then the session, then the body).
 */
interface PortalServices {
  config: Config;
  mail: MailOutbox;
  /** "Forgot password?": the outbox's request budgets, in the shared store. */
  mailThrottles: MailRequestThrottles;
  cookieName: string;
  /**
   * The request's portal (a 404 when it is off or unknown) and what the verbs need; the
   * pages mailed links open ask for it `evenWhenOff`.
   */
  contextOf(request: FastifyRequest, options?: { evenWhenOff?: boolean }): Promise<PortalContext>;
  /** The signed-in end user; a session of a user since paused or expired ends here. */
  signedIn(
    request: FastifyRequest,
    reply: FastifyReply,
    ctx: PortalContext,
  ): Promise<FoundPortalSession>;
  /** A mutation's checks: its Origin, its portal, its session. */
  mutating(
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<{ ctx: PortalContext; session: FoundPortalSession }>;
}

/** Where a reminder's one-click unsubscribe posts (mail/reminder-stop-links.ts writes it). */
const STOP_REMINDERS_PATH = '/api/portal/:publicId/reminders/stop';
const defineRoute = routeDefiner<PortalServices>();

/**
 * The portal's API, `/api/portal/:publicId/…`. The handlers read their own inputs, after the
 * checks that come first: a foreign Origin, an unknown portal or an ended session is refused
 * before a malformed body is.
 */
export const portalRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/portal/:publicId',
    caller: 'public',
    tag: 'End-user portal',
    summary: 'The portal\u2019s name, for its sign-in page',
    description: 'A portal that is off answers 404, as an unknown id does.',
    params: portalParamsSchema,
    responses: { 200: ok(portalInfoSchema) },
    errors: [404],
    handle: async ({ request }, { contextOf, mail }): Promise<PortalInfo> => {
      const { portal } = await contextOf(request);
      return { name: portal.name, publicId: portal.publicId, canResetPassword: mail.isAvailable };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/portal/:publicId/session',
    caller: 'public',
    tag: 'End-user portal',
    summary: 'Sign in with the username and password',
    description:
      'Throttled exactly as a client-API login (the same counters). Sets the portal cookie and answers the account. 401 for an unknown username or a wrong password alike; 403 for a blacklisted, paused or expired account; 429 with Retry-After.',
    params: portalParamsSchema,
    body: portalSignInRequestSchema,
    responses: { 201: ok(portalAccountSchema, 'Signed in.') },
    errors: [401, 403, 404, 429],
    handle: async ({ request, reply }, { config, cookieName, contextOf }) => {
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
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/portal/:publicId/session',
    caller: 'portal',
    tag: 'End-user portal',
    summary: 'Sign out',
    params: portalParamsSchema,
    responses: { 204: { description: 'Signed out; the cookie is cleared.' } },
    handle: async ({ request, reply }, { config, cookieName, mutating }) => {
      const { ctx, session } = await mutating(request, reply);
      await endPortalSession(ctx.db, session.sessionId);
      reply.clearCookie(cookieName, portalCookieOptions(config.isProduction, ctx.portal.publicId));
      return reply.status(204).send();
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/portal/:publicId/account',
    caller: 'portal',
    tag: 'End-user portal',
    summary: 'The signed-in end user\u2019s account',
    params: portalParamsSchema,
    responses: { 200: ok(portalAccountSchema) },
    handle: async ({ request, reply }, { contextOf, signedIn }): Promise<PortalAccount> => {
      const ctx = await contextOf(request);
      const session = await signedIn(request, reply, ctx);
      return readPortalAccount({ ctx, user: session.user });
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/portal/:publicId/devices/:deviceId',
    caller: 'portal',
    tag: 'End-user portal',
    summary: 'Release one of the end user\u2019s devices',
    description:
      'Under the self-service rules: 403 when the application does not allow it, 409 within the cooldown (the message says until when). Answers the account.',
    params: portalDeviceParamsSchema,
    responses: { 200: ok(portalAccountSchema) },
    errors: [409],
    handle: async ({ request, reply }, { mutating }): Promise<PortalAccount> => {
      const { deviceId } = parseInput(portalDeviceParamsSchema, request.params);
      const { ctx, session } = await mutating(request, reply);
      await releasePortalDevice({ ctx, user: session.user, deviceId });
      return readPortalAccount({
        ctx,
        user: { ...session.user, lastSelfResetAt: ctx.clock.now() },
      });
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/portal/:publicId/redeem',
    caller: 'portal',
    tag: 'End-user portal',
    summary: 'Redeem a licence key onto the account',
    description: 'A refused key is a 400 saying why, and counts against the licence throttles.',
    params: portalParamsSchema,
    body: portalRedeemRequestSchema,
    responses: { 200: ok(portalAccountSchema) },
    handle: async ({ request, reply }, { mutating }): Promise<PortalAccount> => {
      const { ctx, session } = await mutating(request, reply);
      const { licenseKey } = parseInput(portalRedeemRequestSchema, request.body);
      await redeemPortalLicense({ ctx, user: session.user, licenseKey });
      return readPortalAccount({ ctx, user: session.user });
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/portal/:publicId/offline-activation',
    caller: 'public',
    tag: 'End-user portal',
    summary: 'Activate a machine offline: an activation request in, an offline licence out',
    description:
      'The request is the text a program without the network wrote (`LKA1.…`). Signed in, the licence is for the account (a request naming another is a 400); otherwise for the holder of the licence key the request carries (401 without one; a refused key is a 400 and counts against the licence throttles). 403 for an account not in good standing; under HWID lock the machine takes one of the account\u2019s devices, 409 when none is free. The licence (`LK1.`, or `LK1E.` when the request asks for it) lasts the application\u2019s maxOfflineDays at most.',
    params: portalParamsSchema,
    body: portalOfflineActivationRequestSchema,
    responses: { 200: ok(portalOfflineActivationSchema) },
    errors: [401, 403, 404, 409, 429],
    handle: async ({ request, reply }, { config, contextOf, cookieName, signedIn }) => {
      assertSameOrigin(request, config);
      const ctx = await contextOf(request);
      // A visitor who is signed in activates for their account; one who is not, with a key.
      const session = request.cookies[cookieName] ? await signedIn(request, reply, ctx) : null;
      const { request: requestText } = parseInput(
        portalOfflineActivationRequestSchema,
        request.body,
      );
      return activateOffline({ ctx, session, requestText });
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/portal/:publicId/password',
    caller: 'portal',
    tag: 'End-user portal',
    summary: 'Change the password',
    description:
      'Needs the current password (a wrong one is a 403 and counts as a failed login). Ends the user\u2019s other portal sessions.',
    params: portalParamsSchema,
    body: portalPasswordRequestSchema,
    responses: { 204: { description: 'Changed.' } },
    handle: async ({ request, reply }, { config, mutating }) => {
      const { ctx, session } = await mutating(request, reply);
      const input = parseInput(portalPasswordRequestSchema, request.body);
      await changePortalPassword({
        ctx,
        session,
        input,
        minimumLength: config.endUserPasswordMinLength,
      });
      return reply.status(204).send();
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/portal/:publicId/password/forgot',
    caller: 'public',
    tag: 'End-user portal',
    summary: 'Forgot password: mail a link to choose a new one',
    description:
      'The sign-in page\u2019s "Forgot password?", as the client API\u2019s password/forgot: the same answer whether or not an account matches (202); 429 past the address\u2019s budget; 403 when the server sends no mail.',
    params: portalParamsSchema,
    body: portalForgotPasswordRequestSchema,
    responses: { 202: ok(portalForgotPasswordResponseSchema, 'Asked.') },
    errors: [403, 404, 429],
    handle: async ({ request, reply }, { config, contextOf, mail, mailThrottles }) => {
      assertSameOrigin(request, config);
      const ctx = await contextOf(request);
      const input = parseInput(portalForgotPasswordRequestSchema, request.body);
      if (!mail.isAvailable) throw new AppError('FORBIDDEN', END_USER_MAIL_UNAVAILABLE);
      const result = await requestPasswordResetMail(
        { db: ctx.db, mail, throttles: mailThrottles, serverSecret: config.serverSecret },
        {
          applicationId: ctx.portal.id,
          ipAddress: ctx.ipAddress,
          target: input.username !== null ? { username: input.username } : { email: input.email! },
        },
      );
      if (result.kind === 'refused') throw rateLimited(result.retryAfterSeconds);
      return reply.status(202).send({ message: FORGOT_PASSWORD_ANSWER });
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/portal/:publicId/password/reset',
    caller: 'public',
    tag: 'End-user portal',
    summary: 'Choose a new password through a mailed link',
    description:
      'The page a password/forgot mail links to; it works with the portal\u2019s sign-in off. 410 LINK_INVALID for an unknown, used or expired link (one answer alike); 400 for a password the rules refuse (the link stays usable). Ends every session of the end user; writes password_reset to the activity log and webhooks.',
    params: portalParamsSchema,
    body: portalPasswordResetRequestSchema,
    responses: { 204: { description: 'Changed: the end user signs in with the new password.' } },
    errors: [403, 404, 410],
    handle: async ({ request, reply }, { config, contextOf }) => {
      assertSameOrigin(request, config);
      const ctx = await contextOf(request, { evenWhenOff: true });
      const input = parseInput(portalPasswordResetRequestSchema, request.body);
      await resetPasswordWithLink({ ctx, input, minimumLength: config.endUserPasswordMinLength });
      return reply.status(204).send();
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/portal/:publicId/email/verify',
    caller: 'public',
    tag: 'End-user portal',
    summary: 'Confirm an e-mail address through a mailed link',
    description:
      'The page a verification mail links to; it works with the portal\u2019s sign-in off. 410 LINK_INVALID for an unknown, used or expired link, or one mailed to an address the user has since changed (one answer alike). Writes email_verified to the activity log and webhooks.',
    params: portalParamsSchema,
    body: portalEmailVerifyRequestSchema,
    responses: { 200: ok(portalEmailVerifiedSchema, 'Confirmed.') },
    errors: [403, 404, 410],
    handle: async ({ request, reply }, { config, contextOf }) => {
      assertSameOrigin(request, config);
      const ctx = await contextOf(request, { evenWhenOff: true });
      const input = parseInput(portalEmailVerifyRequestSchema, request.body);
      return reply.status(200).send(await confirmEmailWithLink({ ctx, input }));
    },
  }),
  defineRoute({
    method: 'POST',
    path: STOP_REMINDERS_PATH,
    caller: 'public',
    tag: 'End-user portal',
    summary: 'Stop expiry reminders (a reminder\u2019s link, or one-click unsubscribe)',
    description:
      'The address every reminder names in `List-Unsubscribe` (RFC 8058: a mail program posts `List-Unsubscribe=One-Click` as a form, from no page of ours, so no Origin is required: the link\u2019s keyed token is the proof), and what the stop page posts. Works with the portal\u2019s sign-in off. 410 LINK_INVALID for a link that is not one of ours; stopping twice is stopping once.',
    params: portalParamsSchema,
    query: portalStopRemindersQuerySchema,
    responses: { 204: { description: 'Stopped: no more reminders for this end user.' } },
    errors: [404, 410],
    handle: async ({ request, reply }, { contextOf }) => {
      const ctx = await contextOf(request, { evenWhenOff: true });
      const input = parseInput(portalStopRemindersQuerySchema, request.query);
      await stopExpiryReminders({ ctx, input });
      return reply.status(204).send();
    },
  }),
];

/**
 * The end-user portal: its page, `/portal/:publicId` (a bundle of its own, built
 * beside the console's), and its API, `/api/portal/:publicId/…`, authenticated by the portal's
 * own cookie only. No owner guard runs here and the owner's cookie is never read; the owner
 * guard never reads this one. Mutations refuse a foreign Origin, as the owner API's do.
 */
export async function registerPortalRoutes(
  app: FastifyInstance,
  deps: AppDependencies & { activity: ActivityRecorder; mail: MailOutbox },
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
  const mailThrottles = createMailRequestThrottles({
    store: throttleStore,
    limits: config.mail.requestLimits,
  });

  const contextOf: PortalServices['contextOf'] = async (request, options) => {
    const { publicId } = parseInput(portalParamsSchema, request.params);
    return {
      portal: await loadPortal(database.db, publicId, options),
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

    const services = {
      config,
      mail: deps.mail,
      mailThrottles,
      cookieName,
      contextOf,
      signedIn,
      mutating,
    };
    const isOneClick = (route: (typeof portalRoutes)[number]) => route.path === STOP_REMINDERS_PATH;
    registerRoutes(
      portalScope,
      withInputsLeftToHandlers(portalRoutes.filter((route) => !isOneClick(route))),
      services,
    );
    // A mail program's one-click unsubscribe posts a form; that route reads its query only,
    // and every other portal route still refuses what is not JSON.
    await portalScope.register(async (oneClickScope) => {
      oneClickScope.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string' },
        (_request, _body, done) => done(null, {}),
      );
      registerRoutes(
        oneClickScope,
        withInputsLeftToHandlers(portalRoutes.filter(isOneClick)),
        services,
      );
    });

    // The page: the portal's own HTML (its bundle, no console script, no Firebase). A portal
    // that is off, or an unknown id, is a 404 with the same page, which says so. The address
    // with a trailing slash is the same page: people type it, and links get it appended.
    const servePage = async (
      request: FastifyRequest,
      reply: FastifyReply,
      options: { evenWhenOff?: boolean },
    ) => {
      const distDir = config.consoleDistDir;
      const pagePath = distDir ? join(distDir, 'portal.html') : null;
      if (!distDir || !pagePath || !existsSync(pagePath)) {
        throw new AppError('NOT_FOUND', 'The portal page is not built: run `npm run build`');
      }
      let isFound = true;
      try {
        await contextOf(request, options);
      } catch {
        isFound = false;
      }
      return reply
        .status(isFound ? 200 : 404)
        .header('cache-control', 'no-cache')
        .sendFile('portal.html', distDir);
    };
    const servePortalPage = (request: FastifyRequest, reply: FastifyReply) =>
      servePage(request, reply, {});
    portalScope.get('/portal/:publicId', servePortalPage);
    portalScope.get('/portal/:publicId/', servePortalPage);
    // A mailed link's page works with the portal's sign-in off. Its `?token=` never reaches
    // a log line (http/request-log-serializer.ts redacts it).
    const serveLinkPage = (request: FastifyRequest, reply: FastifyReply) =>
      servePage(request, reply, { evenWhenOff: true });
    portalScope.get('/portal/:publicId/reset', serveLinkPage);
    portalScope.get('/portal/:publicId/verify', serveLinkPage);
    portalScope.get('/portal/:publicId/unsubscribe', serveLinkPage);
  });
}
