import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { clientApiHeaders } from '@latchkey/contracts';
import type { IncomingHttpHeaders } from 'node:http';
import type { AppDependencies } from '../../http/app-dependencies.ts';
import { isWellFormedApiKey } from '../../lib/api-keys.ts';
import { clientIpOf } from '../../lib/client-ip.ts';
import { createThrottleStore } from '../../lib/failure-throttle.ts';
import { createOccasionalWarning } from '../../lib/occasional-warning.ts';
import { createRequestRateLimiter } from '../../lib/rate-limiter.ts';
import { deriveServerSigningKey } from '../../lib/server-signing-key.ts';
import { createEd25519Signer } from '../../lib/ed25519-signer.ts';
import type { AppMetrics } from '../../metrics/app-metrics.ts';
import type { ActivityRecorder } from '../activity/index.ts';
import { createBlacklistMatcher } from '../blacklist/index.ts';
import { createClientRedemption } from '../licenses/index.ts';
import { createMeterCounter } from '../meters/index.ts';
import { createMailRequestThrottles, type MailOutbox } from '../mail/index.ts';
import { invalidApiKey, invalidRequest, rateLimited } from './client-api-error.ts';
import { createClientAppCache, type ClientApplication } from './client-app-cache.ts';
import type { CallerFinder, ClientCallDefinition } from './client-call-definition.ts';
import type { ClientCallRequest, ClientCaller } from './client-caller.ts';
import type { ClientCallServices } from './client-call-services.ts';
import { NONCE_PROBLEM, nonceOf } from './client-nonce.ts';
import { createClientResponseCounter } from './client-response-counter.ts';
import { createLoginStatements } from './login-statements.ts';
import { createLoginThrottles } from './login-throttles.ts';
import { createLicenseThrottles } from './license-throttles.ts';
import { createSessionLookup } from './session-lookup.ts';
import { createUserStandingLookup } from './user-standing-lookup.ts';

/** The X-API-Key header; an empty one counts as absent. */
const apiKeyOf = (headers: IncomingHttpHeaders): unknown => {
  const value = headers[clientApiHeaders.apiKey];
  return value === '' ? undefined : value;
};

/** While Redis is unreachable every client-API call meets it: one warning a minute says so. */
const REDIS_WARNING_INTERVAL_MS = 60_000;

export type ClientPipelineDependencies = Pick<
  AppDependencies,
  'config' | 'database' | 'clock' | 'applicationEvents'
> & {
  activity: ActivityRecorder;
  metrics: AppMetrics | null;
  log: FastifyBaseLogger;
  mail: MailOutbox;
};

/**
 * The stages every client call goes through, defined once; the Fastify scope
 * (client-api/routes.ts) and the lean path run them both:
 *
 * 1. identify the application behind the API key (from memory when cached);
 * 2. admit the request by its budgets (per IP and application, then across instances);
 * 3. check the nonce (after the application is known, so even that 400 is signed with its key);
 * 4. read and check the body against the call's contract;
 * 5. run the verb;
 * 6. serialize the answer once (serialized-once.ts), sign it, count its `code`.
 */
export function createClientCallPipeline(deps: ClientPipelineDependencies) {
  const { config, clock, activity, log } = deps;
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
        log.warn({ err: error, suppressed }, 'throttle store (Redis) unavailable'),
    }),
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
      log.warn({ err: error, suppressed }, 'shared request limit unavailable (Redis)'),
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
  const licenseThrottles = createLicenseThrottles({
    store: throttleStore,
    limits: config.clientApi,
    serverSecret: config.serverSecret,
  });
  const loginThrottles = createLoginThrottles({ store: throttleStore, limits: config.clientApi });
  const mailThrottles = createMailRequestThrottles({
    store: throttleStore,
    limits: config.mail.requestLimits,
  });
  const statements = createLoginStatements(deps.database);
  const responses = createClientResponseCounter(deps.metrics?.clientResponses ?? null);

  const contextOf: ClientCallServices['contextOf'] = ({ application, ipAddress, log }) => ({
    application,
    ipAddress,
    db,
    log,
    clock,
    activity,
    blacklist,
  });
  const services: ClientCallServices = {
    contextOf,
    licenseContextOf: (caller) => ({
      ...contextOf(caller),
      licenseThrottles,
      serverSecret: config.serverSecret,
      applicationEvents: deps.applicationEvents,
    }),
    loginContextOf: (caller) => ({
      ...contextOf(caller),
      loginThrottles,
      statements,
      sessions,
      serverSecret: config.serverSecret,
      applicationEvents: deps.applicationEvents,
    }),
    mailContextOf: (caller) => ({
      ...contextOf(caller),
      mail: deps.mail,
      mailThrottles,
      serverSecret: config.serverSecret,
    }),
    loginThrottles,
    statements,
    sessions,
    userStanding,
    redeemForClient: createClientRedemption(deps.database),
    countMeterUse: createMeterCounter(deps.database),
    serverSecret: config.serverSecret,
    publicOrigin: config.publicOrigin,
    endUserPasswordMinLength: config.endUserPasswordMinLength,
    serverPublicKeyHex: serverKey.publicKeyHex,
  };

  /** Stage 2, on this instance: per IP and application; unknown applications share one. */
  const spendRequest = (bucket: number | '?', ipAddress: string) => {
    const decision = requestLimiter.take(`${bucket} ${ipAddress}`);
    if (!decision.isAllowed) throw rateLimited(decision.retryAfterSeconds);
  };

  /** Stage 2, across instances (with Redis), after this instance's own budget. */
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

  /** Stages 2 and 3 for an identified request (a bad nonce is checked between the budgets). */
  const admit = (
    application: ClientApplication | null,
    ipAddress: string,
    isNonceValid: boolean,
    done: (error?: Error) => void,
  ) => {
    try {
      if (application) spendRequest(application.id, ipAddress);
      if (!isNonceValid) throw invalidRequest(NONCE_PROBLEM);
    } catch (error) {
      return done(error as Error);
    }
    if (!application) return done();
    spendSharedBudget(application, ipAddress, done);
  };

  /**
   * Stages 1 to 3 as the Fastify scope's one onRequest hook. On a cache hit it finishes
   * without a promise or a closure; on a miss, requests naming no known application spend
   * the per-IP budget of unidentified requests before any database lookup.
   */
  const identify = (
    request: FastifyRequest,
    reply: FastifyReply,
    done: (error?: Error) => void,
  ) => {
    // What the other scopes' onRequest hook does (app.ts), here in the one hook v1 has.
    reply.header('x-request-id', request.id);
    const nonce = nonceOf(request.headers[clientApiHeaders.nonce]);
    if (nonce !== null) request.clientNonce = nonce;
    request.clientIp = clientIpOf(request);

    const apiKey = apiKeyOf(request.headers);
    const cached = typeof apiKey === 'string' ? applications.peek(apiKey) : undefined;
    const admitAs = (application: ClientApplication | null) => {
      request.clientApp = application;
      admit(application, request.clientIp, nonce !== null, done);
    };
    if (cached) return admitAs(cached);
    try {
      spendRequest('?', request.clientIp);
    } catch (error) {
      return done(error as Error);
    }
    if (!isWellFormedApiKey(apiKey)) return admitAs(null);
    applications.load(apiKey).then(admitAs, done);
  };

  const callers: CallerFinder = {
    callerOf(request) {
      const application = request.clientApp;
      if (!application) throw invalidApiKey(apiKeyOf(request.headers) === undefined);
      return callerFor(request, application);
    },
    async callerWithBodyKey(request, bodyApiKey) {
      if (request.clientApp || apiKeyOf(request.headers) !== undefined) {
        return callers.callerOf(request);
      }
      const application = isWellFormedApiKey(bodyApiKey)
        ? await applications.load(bodyApiKey)
        : null;
      if (!application) throw invalidApiKey(bodyApiKey === null);
      // From here the answer is signed with this application's key.
      request.clientApp = application;
      spendRequest(application.id, request.clientIp);
      return callerFor(request, application);
    },
  };
  const callerFor = (request: ClientCallRequest, application: ClientApplication): ClientCaller => ({
    application,
    ipAddress: request.clientIp,
    log: request.log,
    request,
  });

  /**
   * Stages 4 and 5 (and 6's count) for one call: what its route and the lean path run. The
   * count is the caller's to make once the answer is there (a promise of its own per call
   * would cost the hot path an allocation and a turn of the microtask queue).
   */
  const runnerOf = (call: ClientCallDefinition): ClientCallRunner => {
    const countCode = responses.forRoute(call.url);
    return {
      run: (body, request) => call.run(body, request, callers, services),
      count: (answer) => {
        const { code } = answer as { code?: unknown };
        if (typeof code === 'string') countCode(code);
      },
    };
  };

  /**
   * Stage 6's signature: Ed25519 over `{timestamp}.{nonce}.{body}`, the exact bytes sent,
   * with the application's key when the API key identified one, else the server-wide key.
   * The last step before sending, so errors, 404s and 429s are signed exactly like successes.
   */
  const sign = (
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

  return {
    identify,
    /** Stages 2 and 3 for a request whose application and valid nonce are already known. */
    admitKnown: (
      application: ClientApplication,
      ipAddress: string,
      done: (error?: Error) => void,
    ) => admit(application, ipAddress, true, done),
    cachedApplication: (apiKey: string) => applications.peek(apiKey),
    /**
     * Signs an answer given before the v1 scope saw the request (a path parameter the router
     * refused): with its application's key when that is in memory, else the server's, as an
     * answer to an unknown API key is. No lookup: a malformed URL costs no database read.
     */
    signUnrouted: (headers: IncomingHttpHeaders, payload: string) => {
      const apiKey = apiKeyOf(headers);
      const application = typeof apiKey === 'string' ? applications.peek(apiKey) : undefined;
      return sign(application ?? null, nonceOf(headers[clientApiHeaders.nonce]) ?? '', payload);
    },
    /** The application with this API key, from memory or one lookup (the KeyAuth API's). */
    loadApplication: (apiKey: string) => applications.load(apiKey),
    /** Stage 2 for a request that names no known application: the shared per-IP budget. */
    admitUnknown: (ipAddress: string) => spendRequest('?', ipAddress),
    /** What the verbs are given: the KeyAuth-compatible API runs v1's verbs with them. */
    services,
    runnerOf,
    sign,
    /** Counts an error answer's `code` for its route (the error and not-found handlers). */
    countFor: (route: string) => responses.forRoute(route),
    close: () => throttleStore.close(),
  };
}

export type ClientCallPipeline = ReturnType<typeof createClientCallPipeline>;

/** One call's stages 4 and 5, and the count of its answer's `code` (stage 6). */
export interface ClientCallRunner {
  /** Checks the body against the call's contract, finds the caller and runs the verb. */
  run(body: unknown, request: ClientCallRequest): Promise<object>;
  count(answer: object): void;
}
