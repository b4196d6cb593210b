import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { RateLimiterRes } from 'rate-limiter-flexible';
import {
  CLIENT_NONCE_MAX_LENGTH,
  CLIENT_NONCE_PATTERN,
  clientApiHeaders,
  clientLicenseCheckoutRequestSchema,
  clientLicenseLoginRequestSchema,
  type ClientLicenseCheckoutResponse,
  clientDeviceResetRequestSchema,
  type ClientDeviceResetResponse,
  clientFileRequestSchema,
  type ClientFileResponse,
  clientLoginRequestSchema,
  clientRedeemRequestSchema,
  clientRegisterRequestSchema,
  clientSessionRequestSchema,
  clientVerifyRequestSchema,
  clientVariableRequestSchema,
  clientUserVariableRequestSchema,
  clientSetUserVariableRequestSchema,
  endUserPasswordProblem,
  variableBodyLimitBytes,
  variableLimits,
  type ClientVariableResponse,
  type ClientAuthResponse,
  type ClientPublicKeyResponse,
  type ClientSessionResponse,
  type ClientVerifyResponse,
  type ClientSessionRequest,
} from '@latchkey/contracts';
import type { AppDependencies } from '../../http/app-dependencies.ts';
import { createJsonBodyReader } from '../../http/accept-empty-json-bodies.ts';
import { refuseUncleanClientText } from '../../http/refuse-unclean-request-text.ts';
import { isWellFormedApiKey } from '../../lib/api-keys.ts';
import { clientIpFinder, clientIpOf } from '../../lib/client-ip.ts';
import { createThrottleStore } from '../../lib/failure-throttle.ts';
import { createOccasionalWarning } from '../../lib/occasional-warning.ts';
import { createRequestRateLimiter } from '../../lib/rate-limiter.ts';
import { deriveServerSigningKey } from '../../lib/server-signing-key.ts';
import { createEd25519Signer } from '../../lib/ed25519-signer.ts';
import type { AppMetrics } from '../../metrics/app-metrics.ts';
import {
  createRouteObserver,
  UNMATCHED_ROUTE,
  type UnmatchedObserver,
} from '../../metrics/observe-http-requests.ts';
import type { ActivityRecorder } from '../activity/index.ts';
import { createBlacklistMatcher } from '../blacklist/index.ts';
import {
  type ClientApiError,
  handleClientApiError,
  handleClientApiNotFound,
  invalidApiKey,
  invalidRequest,
  parseClientInput,
  rateLimited,
  type OnClientErrorAnswer,
} from './client-api-error.ts';
import { checkOutLicense } from './check-out-license.ts';
import { createClientAppCache, type ClientApplication } from './client-app-cache.ts';
import type { ClientContext } from './client-context.ts';
import { createClientResponseCounter } from './client-response-counter.ts';
import {
  answerBeforeFastify,
  type ClientCaller,
  createLeanClientPath,
  type LeanCall,
  type LeanClientPath,
} from './lean-client-path.ts';
import { logInEndUser } from './log-in-end-user.ts';
import { createLoginStatements } from './login-statements.ts';
import { createLoginThrottles } from './login-throttles.ts';
import type { LicenseClientContext } from './license-client-context.ts';
import { createLicenseThrottles } from './license-throttles.ts';
import { logInWithLicense } from './log-in-with-license.ts';
import { redeemLicense } from './redeem-license.ts';
import { createClientRedemption } from '../licenses/index.ts';
import { registerEndUser } from './register-end-user.ts';
import { resetOwnDevices } from './reset-own-devices.ts';
import { serializeClientAnswer } from './serialized-once.ts';
import { issueFileUrl } from './issue-file-url.ts';
import { createSessionLookup } from './session-lookup.ts';
import { trackClientSession } from './track-client-session.ts';
import { createUserStandingLookup } from './user-standing-lookup.ts';
import { verifyEndUser } from './verify-end-user.ts';
import { readApplicationVariable } from './read-application-variable.ts';
import { readOwnUserVariable } from './read-own-user-variable.ts';
import { setOwnUserVariable } from './set-own-user-variable.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The application the X-API-Key header identified (client API only; null elsewhere). */
    clientApp: ClientApplication | null;
    /** The client's address, normalised (client API only). */
    clientIp: string;
    /** The X-Request-Nonce the response signature binds ('' when absent). */
    clientNonce: string;
  }
  interface FastifyInstance {
    /** The client API's lean path (verify, heartbeat); absent where /api/v1 is not served. */
    clientApiLeanPath: LeanClientPath;
  }
}

/** The X-API-Key header; an empty one counts as absent. */
const apiKeyHeaderOf = (request: FastifyRequest): unknown => {
  const value = request.headers[clientApiHeaders.apiKey];
  return value === '' ? undefined : value;
};

/** While Redis is unreachable every client-API call meets it: one warning a minute says so. */
const REDIS_WARNING_INTERVAL_MS = 60_000;

const NONCE_PROBLEM = `${clientApiHeaders.nonce} must be at most ${CLIENT_NONCE_MAX_LENGTH} visible ASCII characters`;

/**
 * The public client API, /api/v1 (docs/client-api.md). Its own scope:
 * its errors and unknown paths answer in the v1 shape, every answer is signed, and the
 * application behind the API key is found once per request, from memory when cached.
 */
export async function registerClientApiRoutes(
  app: FastifyInstance,
  deps: Pick<AppDependencies, 'config' | 'database' | 'clock' | 'applicationEvents'> & {
    activity: ActivityRecorder;
    metrics: AppMetrics | null;
    /** Times 404s in the HTTP metrics (no scope-wide hook on the hot path). */
    observeUnmatched: UnmatchedObserver | null;
  },
): Promise<void> {
  const { config, clock, activity } = deps;
  const { db } = deps.database;
  const serverKey = deriveServerSigningKey(config.serverSecret);
  const signWithServerKey = createEd25519Signer(serverKey.privateKey);
  const applications = createClientAppCache({
    db,
    serverSecret: config.serverSecret,
    clock,
    applicationEvents: deps.applicationEvents,
    ttlMs: config.clientApi.applicationCacheTtlMs,
  });
  const requestLimiter = createRequestRateLimiter({
    limit: config.clientApi.ipLimitPerMinute,
    windowMs: 60_000,
    clock,
  });
  const throttleStore = createThrottleStore({
    redisUrl: config.redisUrl,
    database: deps.database,
    onRedisError: createOccasionalWarning({
      intervalMs: REDIS_WARNING_INTERVAL_MS,
      clock,
      write: (error, suppressed) =>
        app.log.warn({ err: error, suppressed }, 'throttle store (Redis) unavailable'),
    }),
  });
  app.addHook('onClose', () => throttleStore.close());
  const loginThrottles = createLoginThrottles({ store: throttleStore, limits: config.clientApi });
  const licenseThrottles = createLicenseThrottles({
    store: throttleStore,
    limits: config.clientApi,
    serverSecret: config.serverSecret,
  });
  // With Redis, an application's per-IP budget is also counted across instances (a fixed
  // window, rate-limiter-flexible's). The in-memory bucket above stays the first check, so a
  // flood is refused before it costs a Redis round trip, and it is the only one while Redis
  // is unreachable (fail fast: the hot path does not wait for a reconnection). Without Redis
  // the budget is per instance: a database write per request would cost more than it guards.
  const sharedRequestLimiter =
    throttleStore.kind === 'redis'
      ? throttleStore.createLimiter({
          name: 'client_api_ip',
          points: config.clientApi.ipLimitPerMinute,
          durationSeconds: 60,
          failFastWhenUnavailable: true,
        })
      : null;
  const warnSharedLimitUnavailable = createOccasionalWarning({
    intervalMs: REDIS_WARNING_INTERVAL_MS,
    clock,
    write: (error, suppressed) =>
      app.log.warn({ err: error, suppressed }, 'shared request limit unavailable (Redis)'),
  });
  const userStanding = createUserStandingLookup({
    db,
    clock,
    applicationEvents: deps.applicationEvents,
    ttlMs: config.clientApi.applicationCacheTtlMs,
  });
  const sessions = createSessionLookup({
    db,
    clock,
    applicationEvents: deps.applicationEvents,
    userStanding,
    ttlMs: config.clientApi.applicationCacheTtlMs,
    idleSessionMs: config.retention.sessionMs,
  });
  const blacklist = createBlacklistMatcher(db);
  const loginStatements = createLoginStatements(deps.database);
  const redeemForClient = createClientRedemption(deps.database);
  const responses = createClientResponseCounter(deps.metrics?.clientResponses ?? null);
  const countError: OnClientErrorAnswer = (request, code) =>
    responses.forRoute(
      request.is404 ? UNMATCHED_ROUTE : (request.routeOptions.url ?? UNMATCHED_ROUTE),
    )(code);
  const countRegister = responses.forRoute('/api/v1/register');
  const countLogin = responses.forRoute('/api/v1/login');
  const countVerify = responses.forRoute('/api/v1/verify');
  const countSession = responses.forRoute('/api/v1/session/track');
  const countRedeem = responses.forRoute('/api/v1/license/redeem');
  const countLicenseLogin = responses.forRoute('/api/v1/license/login');
  const countDeviceReset = responses.forRoute('/api/v1/devices/reset');
  const countCheckout = responses.forRoute('/api/v1/license/checkout');
  const countVariable = responses.forRoute('/api/v1/var');
  const countUserVariable = responses.forRoute('/api/v1/user-var');
  const countSetUserVariable = responses.forRoute('/api/v1/user-var/set');
  const countFile = responses.forRoute('/api/v1/file');

  /** Per IP and application; requests that name no known application share one budget. */
  const spendRequest = (bucket: number | '?', ipAddress: string) => {
    const decision = requestLimiter.take(`${bucket} ${ipAddress}`);
    if (!decision.isAllowed) throw rateLimited(decision.retryAfterSeconds);
  };

  /**
   * With Redis, an identified application's per-IP budget shared by every instance, spent
   * after this instance's own (the onRequest hook and the lean path both spend here).
   */
  const spendSharedBudget = (
    application: ClientApplication,
    ipAddress: string,
    done: (error?: Error) => void,
  ) => {
    if (!sharedRequestLimiter) return done();
    sharedRequestLimiter.consume(`${application.id} ${ipAddress}`).then(
      () => done(),
      (refusal: unknown) => {
        if (refusal instanceof RateLimiterRes) {
          return done(rateLimited(Math.max(1, Math.ceil(refusal.msBeforeNext / 1000))));
        }
        // Redis unavailable: the per-instance budget already applied.
        warnSharedLimitUnavailable(refusal);
        done();
      },
    );
  };

  /** Records the application the API key named, spends its per-IP budget, refuses a bad nonce. */
  const admitIdentified = (
    request: FastifyRequest,
    application: ClientApplication | null,
    isNonceValid: boolean,
    done: (error?: Error) => void,
  ) => {
    request.clientApp = application;
    try {
      if (application) spendRequest(application.id, request.clientIp);
      // Checked after the application is known, so even this 400 is signed with its key.
      if (!isNonceValid) throw invalidRequest(NONCE_PROBLEM);
    } catch (error) {
      return done(error as Error);
    }
    if (!application) return done();
    spendSharedBudget(application, request.clientIp, done);
  };

  /**
   * The hot path's one lookup, from memory when cached (then this hook finishes without a
   * promise or a closure); on a miss, requests naming no known application spend the per-IP
   * budget of unidentified requests before any database lookup.
   */
  const identifyClient = (
    request: FastifyRequest,
    reply: FastifyReply,
    done: (error?: Error) => void,
  ) => {
    // What the other scopes' onRequest hook does (app.ts), here in the one hook v1 has.
    reply.header('x-request-id', request.id);
    const nonce = request.headers[clientApiHeaders.nonce];
    const isNonceValid =
      nonce === undefined ||
      (typeof nonce === 'string' &&
        nonce.length <= CLIENT_NONCE_MAX_LENGTH &&
        CLIENT_NONCE_PATTERN.test(nonce));
    if (isNonceValid && nonce !== undefined) request.clientNonce = nonce;
    request.clientIp = clientIpOf(request);

    const apiKey = apiKeyHeaderOf(request);
    const cached = typeof apiKey === 'string' ? applications.peek(apiKey) : undefined;
    if (cached) return admitIdentified(request, cached, isNonceValid, done);
    try {
      spendRequest('?', request.clientIp);
    } catch (error) {
      return done(error as Error);
    }
    if (!isWellFormedApiKey(apiKey)) return admitIdentified(request, null, isNonceValid, done);
    applications
      .load(apiKey)
      .then((application) => admitIdentified(request, application, isNonceValid, done), done);
  };

  /**
   * Ed25519 over `{timestamp}.{nonce}.{body}`, the exact bytes sent, with the application's
   * key when the API key identified one, else the server-wide key. One place, the last step
   * before sending, so errors, 404s and 429s are signed exactly like successes.
   */
  const signAnswer = (
    application: ClientApplication | null,
    nonce: string,
    payload: string | Buffer,
  ): { signature: string; timestamp: string } => {
    const now = clock.now();
    const timestamp = String(Math.floor(now.getTime() / 1000));
    const prefix = `${timestamp}.${nonce}.`;
    const message =
      typeof payload === 'string'
        ? prefix + payload
        : Buffer.concat([Buffer.from(prefix), payload]);
    const signature = (application?.sign ?? signWithServerKey)(message);
    if (application) activity.countApiRequest(application.id, now);
    return { signature: signature.toString('hex'), timestamp };
  };
  const signResponse = (
    request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
    done: (error: Error | null, payload?: unknown) => void,
  ) => {
    if (
      payload !== null &&
      payload !== undefined &&
      typeof payload !== 'string' &&
      !Buffer.isBuffer(payload)
    ) {
      return done(new Error('client API responses must not be streamed: they are signed'));
    }
    const { signature, timestamp } = signAnswer(
      request.clientApp,
      request.clientNonce,
      payload ?? '',
    );
    reply.header(clientApiHeaders.signature, signature);
    reply.header(clientApiHeaders.signatureTimestamp, timestamp);
    done(null, payload);
  };

  const requireApplication = (request: FastifyRequest): ClientApplication => {
    if (request.clientApp) return request.clientApp;
    throw invalidApiKey(apiKeyHeaderOf(request) === undefined);
  };
  const callerOf = (request: FastifyRequest): ClientCaller => ({
    application: requireApplication(request),
    ipAddress: request.clientIp,
    log: request.log,
  });

  /** Login may carry the key as `api_key` in the body; the header, when sent, decides. */
  const applicationForLogin = async (
    request: FastifyRequest,
    bodyApiKey: string | null,
  ): Promise<ClientApplication> => {
    if (request.clientApp || apiKeyHeaderOf(request) !== undefined) {
      return requireApplication(request);
    }
    const application = isWellFormedApiKey(bodyApiKey) ? await applications.load(bodyApiKey) : null;
    if (!application) throw invalidApiKey(bodyApiKey === null);
    request.clientApp = application;
    spendRequest(application.id, request.clientIp);
    return application;
  };

  const contextFor = ({ application, ipAddress, log }: ClientCaller): ClientContext => ({
    application,
    ipAddress,
    db,
    log,
    clock,
    activity,
    blacklist,
  });
  const contextOf = (request: FastifyRequest, application: ClientApplication): ClientContext =>
    contextFor({ application, ipAddress: request.clientIp, log: request.log });

  // Verify and heartbeat: one function each for their Fastify route and the lean path.
  const verify = async (
    caller: ClientCaller,
    input: z.output<typeof clientVerifyRequestSchema>,
  ) => {
    const outcome = await verifyEndUser({
      ctx: { ...contextFor(caller), userStanding },
      input: { userId: input.user_id, entitlements: input.entitlements },
    });
    countVerify(outcome.code);
    return outcome;
  };
  const trackSession = async (caller: ClientCaller, input: ClientSessionRequest) => {
    const outcome = await trackClientSession({ ctx: { ...contextFor(caller), sessions }, input });
    countSession(outcome.code);
    return outcome;
  };
  const licenseContextOf = (
    request: FastifyRequest,
    application: ClientApplication,
  ): LicenseClientContext => ({
    ...contextOf(request, application),
    licenseThrottles,
    serverSecret: config.serverSecret,
    applicationEvents: deps.applicationEvents,
  });

  await app.register(
    async (v1) => {
      v1.decorateRequest('clientApp', null);
      v1.decorateRequest('clientIp', '');
      v1.decorateRequest('clientNonce', '');
      v1.setErrorHandler((error: FastifyError | ClientApiError, request, reply) =>
        handleClientApiError(error, request, reply, countError),
      );
      v1.setNotFoundHandler((request, reply) => {
        deps.observeUnmatched?.onFinish(request, reply);
        refuseUncleanClientText(request);
        return handleClientApiNotFound(request, reply, countError);
      });
      // The edge's text check (valid Unicode, no NUL) for what the JSON parser does not see,
      // where the other scopes' preValidation hook would run (after parsing, before the
      // handler), without a hook.
      v1.addHook('onRoute', (route) => {
        const handler = route.handler;
        route.handler = function checkedHandler(request, reply) {
          refuseUncleanClientText(request);
          return handler.call(this, request, reply);
        };
      });
      v1.addHook('onRequest', identifyClient);
      v1.addHook('onSend', signResponse);
      v1.setReplySerializer(serializeClientAnswer);

      v1.get('/public-key', async (): Promise<ClientPublicKeyResponse> => ({
        success: true,
        public_key: serverKey.publicKeyHex,
      }));

      v1.post('/register', async (request): Promise<ClientAuthResponse> => {
        const input = parseClientInput(clientRegisterRequestSchema, request.body);
        const application = requireApplication(request);
        const passwordProblem = endUserPasswordProblem(
          input.password,
          config.endUserPasswordMinLength,
        );
        if (passwordProblem) throw invalidRequest(`password: ${passwordProblem}`);
        const outcome = await registerEndUser({
          ctx: licenseContextOf(request, application),
          input,
        });
        countRegister(outcome.code);
        return outcome;
      });

      v1.post('/login', async (request): Promise<ClientAuthResponse> => {
        const input = parseClientInput(clientLoginRequestSchema, request.body);
        const application = await applicationForLogin(request, input.api_key);
        const outcome = await logInEndUser({
          ctx: {
            ...contextOf(request, application),
            loginThrottles,
            statements: loginStatements,
            sessions,
          },
          input,
        });
        countLogin(outcome.code);
        return outcome;
      });

      v1.post('/verify', async (request): Promise<ClientVerifyResponse> => {
        const input = parseClientInput(clientVerifyRequestSchema, request.body);
        return verify(callerOf(request), input);
      });

      v1.post('/license/redeem', async (request): Promise<ClientAuthResponse> => {
        const input = parseClientInput(clientRedeemRequestSchema, request.body);
        const outcome = await redeemLicense({
          ctx: {
            ...licenseContextOf(request, requireApplication(request)),
            loginThrottles,
            statements: loginStatements,
            redeemForClient,
          },
          input,
        });
        countRedeem(outcome.code);
        return outcome;
      });

      v1.post('/license/login', async (request): Promise<ClientAuthResponse> => {
        const input = parseClientInput(clientLicenseLoginRequestSchema, request.body);
        const outcome = await logInWithLicense({
          ctx: {
            ...licenseContextOf(request, requireApplication(request)),
            statements: loginStatements,
            sessions,
          },
          input,
        });
        countLicenseLogin(outcome.code);
        return outcome;
      });

      v1.post('/license/checkout', async (request): Promise<ClientLicenseCheckoutResponse> => {
        const input = parseClientInput(clientLicenseCheckoutRequestSchema, request.body);
        const outcome = await checkOutLicense({
          ctx: contextOf(request, requireApplication(request)),
          input,
        });
        countCheckout(outcome.code);
        return outcome;
      });

      v1.post('/var', async (request): Promise<ClientVariableResponse> => {
        const input = parseClientInput(clientVariableRequestSchema, request.body);
        const outcome = await readApplicationVariable({
          ctx: contextOf(request, requireApplication(request)),
          input,
        });
        countVariable(outcome.code);
        return outcome;
      });

      v1.post('/user-var', async (request): Promise<ClientVariableResponse> => {
        const input = parseClientInput(clientUserVariableRequestSchema, request.body);
        const outcome = await readOwnUserVariable({
          ctx: contextOf(request, requireApplication(request)),
          input,
        });
        countUserVariable(outcome.code);
        return outcome;
      });

      // A 16 KB value can need more than the default body limit once JSON-escaped.
      v1.post(
        '/user-var/set',
        {
          bodyLimit: Math.max(
            config.bodyLimitBytes,
            variableBodyLimitBytes(variableLimits.userValueBytes),
          ),
        },
        async (request): Promise<ClientVariableResponse> => {
          const input = parseClientInput(clientSetUserVariableRequestSchema, request.body);
          const outcome = await setOwnUserVariable({
            ctx: contextOf(request, requireApplication(request)),
            input,
          });
          countSetUserVariable(outcome.code);
          return outcome;
        },
      );

      v1.post('/file', async (request): Promise<ClientFileResponse> => {
        const input = parseClientInput(clientFileRequestSchema, request.body);
        const outcome = await issueFileUrl({
          ctx: {
            ...contextOf(request, requireApplication(request)),
            serverSecret: config.serverSecret,
            // Through the proxy the client reached us by, unless the deployment names its origin.
            downloadOrigin: config.publicOrigin ?? `${request.protocol}://${request.host}`,
          },
          input,
        });
        countFile(outcome.code);
        return outcome;
      });

      v1.post('/devices/reset', async (request): Promise<ClientDeviceResetResponse> => {
        const input = parseClientInput(clientDeviceResetRequestSchema, request.body);
        const outcome = await resetOwnDevices({
          ctx: {
            ...contextOf(request, requireApplication(request)),
            loginThrottles,
            statements: loginStatements,
            sessions,
          },
          input,
        });
        countDeviceReset(outcome.code);
        return outcome;
      });

      v1.post('/session/track', async (request): Promise<ClientSessionResponse> => {
        const input = parseClientInput(clientSessionRequestSchema, request.body);
        return trackSession(callerOf(request), input);
      });
    },
    { prefix: '/api/v1' },
  );

  const leanPath = createLeanClientPath({
    calls: new Map<string, LeanCall>([
      [
        '/api/v1/verify',
        {
          answer: (body, caller) =>
            verify(caller, parseClientInput(clientVerifyRequestSchema, body)),
        },
      ],
      [
        '/api/v1/session/track',
        {
          answer: (body, caller) =>
            trackSession(caller, parseClientInput(clientSessionRequestSchema, body)),
        },
      ],
    ]),
    bodyLimitBytes: config.bodyLimitBytes,
    cachedApplication: (apiKey) => applications.peek(apiKey),
    ipOf: clientIpFinder(config.trustProxyHops),
    admit: (application, ipAddress, done) => {
      try {
        spendRequest(application.id, ipAddress);
      } catch (error) {
        return done(error as Error);
      }
      spendSharedBudget(application, ipAddress, done);
    },
    readJsonBody: createJsonBodyReader(app),
    serialize: serializeClientAnswer,
    sign: signAnswer,
    countError: (route, code) => responses.forRoute(route)(code),
    observerFor: deps.metrics
      ? (route) => createRouteObserver(deps.metrics!.httpRequests, route)
      : null,
    log: app.log,
  });
  if (config.clientApi.isLeanPathEnabled) answerBeforeFastify(app.server, leanPath.answerLeanly);
  app.decorate('clientApiLeanPath', leanPath);
  app.addHook('preClose', () => leanPath.close());
}
