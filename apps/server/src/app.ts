import fastifyCookie from '@fastify/cookie';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  type RouteOptions,
} from 'fastify';
import type { AppDependencies } from './http/app-dependencies.ts';
import { registerApiReference } from './http/api-reference.ts';
import { registerConsoleAssets } from './http/console-assets.ts';
import { registerSdkPackages } from './http/sdk-packages.ts';
import { acceptEmptyJsonBodies } from './http/accept-empty-json-bodies.ts';
import { answerFrameworkError, registerErrorHandler } from './http/error-handler.ts';
import { refuseUncleanRequestText } from './http/refuse-unclean-request-text.ts';
import { registerClientApiElsewhere, registerConsoleElsewhere } from './http/served-elsewhere.ts';
import {
  checkResponsesAgainstContracts,
  type ContractViolation,
} from './http/response-contract-check.ts';
import { serializeRequestForLog } from './http/request-log-serializer.ts';
import { OneLinePerRequest, prettyLogTransport } from './http/pretty-request-log.ts';
import { requestIdFrom } from './http/request-id.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { createAppMetrics, type AppMetrics } from './metrics/app-metrics.ts';
import { startMetricsListener, type MetricsListener } from './metrics/metrics-listener.ts';
import { observeHttpRequests } from './metrics/observe-http-requests.ts';
import { registerMetricsRoute } from './metrics/register-metrics-route.ts';
import { trustNearestProxies } from './lib/client-ip.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { assertServerSecretMatchesDatabase } from './lib/server-secret-check.ts';
import { createActivityEvents, type ActivityEvents } from './events/activity-events.ts';
import {
  createActivityRecorder,
  type ActivityRecorder,
} from './modules/activity/activity-recorder.ts';
import { startCounterFolder } from './modules/activity/fold-counter-deltas.ts';
import { registerActivityRoutes } from './modules/activity/routes.ts';
import { registerAdminRoutes } from './modules/admin/routes.ts';
import { registerApiTokenRoutes } from './modules/api-tokens/routes.ts';
import { registerManagementApi } from './modules/management-api/register-management-api.ts';
import { createApplicationEvents, type ApplicationEvents } from './events/application-events.ts';
import { registerApplicationRoutes } from './modules/applications/routes.ts';
import { shareApplicationChanges } from './modules/applications/share-application-changes.ts';
import { registerAppUserRoutes } from './modules/app-users/routes.ts';
import { registerDeviceRoutes } from './modules/devices/routes.ts';
import { registerPortalRoutes } from './modules/portal/routes.ts';
import { createOwnerGuard } from './modules/auth/owner-guard.ts';
import { registerOwnerAuthRoutes, registerPublicAuthRoutes } from './modules/auth/routes.ts';
import { registerBlacklistRoutes } from './modules/blacklist/routes.ts';
import { registerClientApiRoutes } from './modules/client-api/routes.ts';
import { registerKeyauthApi } from './modules/keyauth-api/index.ts';
import { registerDashboardRoutes } from './modules/dashboard/routes.ts';
import { registerActivityChartRoutes } from './modules/activity-charts/routes.ts';
import {
  startLiveSessionSampler,
  type LiveSessionSampler,
} from './modules/activity-charts/live-session-sampler.ts';
import { registerHealthRoutes, registerRuntimeConfigRoute } from './modules/health/routes.ts';
import { registerIntegrationRoutes } from './modules/integration/routes.ts';
import {
  startRetentionSweeper,
  type RetentionSweeper,
} from './modules/retention/retention-sweeper.ts';
import {
  checkWebhookDestinationWithoutDns,
  destinationPolicyFor,
  guardedLookup,
} from './modules/webhooks/destination-guard.ts';
import { registerLicenseRoutes } from './modules/licenses/routes.ts';
import { startLicenseKeyPrefixBackfill } from './modules/licenses/license-key-prefix-backfill.ts';
import { createDatabaseFileStorage } from './modules/files/database-file-storage.ts';
import { registerDownloadRoutes } from './modules/files/download-routes.ts';
import { registerFileRoutes } from './modules/files/routes.ts';
import { createRunningImports, registerImportRoutes } from './modules/imports/routes.ts';
import { createOwnerEventHub, type OwnerEventHub } from './events/owner-event-hub.ts';
import { startOwnerEventFeed } from './modules/owner-events/owner-event-feed.ts';
import { publishConsoleChanges } from './modules/owner-events/publish-console-changes.ts';
import {
  registerOwnerEventRoutes,
  type OwnerEventStreamSettings,
} from './modules/owner-events/routes.ts';
import { shareOwnerEvents } from './modules/owner-events/share-owner-events.ts';
import { planRoutes } from './modules/plans/index.ts';
import { seatRoutes } from './modules/seats/index.ts';
import { registerRoutes } from './http/route-definition.ts';
import { routeContracts, routePermissions } from './route-table.ts';
import { registerSubscriptionRoutes } from './modules/subscriptions/routes.ts';
import { registerVariableRoutes } from './modules/variables/routes.ts';
import { registerWebhookRoutes } from './modules/webhooks/routes.ts';
import { registerShopRoutes, registerShopWebhookRoutes } from './modules/shops/index.ts';
import {
  createMailDispatcher,
  createMailTransport,
  mailLinkOrigin,
  startExpiryReminderSweep,
  registerMailRoutes,
  type MailOutbox,
} from './modules/mail/index.ts';
import type { OutboxWorker } from './lib/outbox-worker.ts';
import {
  createWebhookDispatcher,
  type WebhookDispatcher,
} from './modules/webhooks/webhook-dispatcher.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The client API's side-effect recorder (activity log, counters); tests flush it. */
    activity: ActivityRecorder;
    /** The retention sweep's schedule; null when buildApp was asked not to sweep (tests). */
    retentionSweeper: RetentionSweeper | null;
    /** The activity charts' live-session sampler; null with the retention sweep off (tests). */
    liveSessionSampler: LiveSessionSampler | null;
    /** Sends queued webhook deliveries; null when buildApp was asked not to (tests). */
    webhookDispatcher: WebhookDispatcher | null;
    /** Sends queued mail; null when the server sends none, or buildApp was asked not to. */
    mailDispatcher: OutboxWorker | null;
    /** Events for the owners' open consoles (tests publish and count listeners through it). */
    ownerEvents: OwnerEventHub;
    /** Prometheus metrics; null when neither METRICS_PORT nor METRICS_TOKEN is set. */
    metrics: AppMetrics | null;
    /** METRICS_PORT's listener, once the app is ready; null without METRICS_PORT. */
    metricsListener: MetricsListener | null;
  }
}

/** Rows per retention statement, and the pause between statements. */
const RETENTION_BATCH_SIZE = 1000;
const RETENTION_PAUSE_MS = 50;
/** The first sweep waits until start-up's own work (migrations, first requests) is done. */
const RETENTION_START_DELAY_MS = 30_000;
/** How often the live sessions are sampled for the activity charts (an hour keeps its peak). */
const LIVE_SESSION_SAMPLE_INTERVAL_MS = 60_000;

/**
 * What one instance serves. `everything` unless CLIENT_API_PORT splits the two:
 * then `client-api` workers serve /api/v1 (with the downloads it hands out) and `console`
 * workers the console, the owner API and the portal. Health and metrics are on both.
 */
export type ServedSide = 'everything' | 'client-api' | 'console';

/** The whole HTTP application, built from its dependencies (main.ts and tests both use it). */
export async function buildApp(
  dependencies: Omit<
    AppDependencies,
    'clock' | 'applicationEvents' | 'activityEvents' | 'ownerEvents'
  > & {
    clock?: Clock;
    ownerEvents?: OwnerEventHub;
    applicationEvents?: ApplicationEvents;
    activityEvents?: ActivityEvents;
    logger?: FastifyServerOptions['logger'];
    /** Told about every route as it is registered (the fuzz suite walks them all). */
    onRoute?: (route: RouteOptions) => void;
    /**
     * Tests: every answer is checked against the documented contract of its route and status
     * (route-contracts.ts), and each mismatch reported here. Unset in production.
     */
    onContractViolation?: (violation: ContractViolation) => void;
    /**
     * false: no background retention sweep nor live-session sampling (tests whose clocks and
     * fixtures they would disturb).
     */
    isRetentionSweepEnabled?: boolean;
    /** false: no webhook sending (tests that look at queued deliveries, or bring their own). */
    isWebhookDispatcherEnabled?: boolean;
    /** false: no mail sending (tests that look at queued mail, or stand for a dead instance). */
    isMailDispatcherEnabled?: boolean;
    /** Tests: a quicker feed and heartbeat, a smaller slow-reader bound for the live stream. */
    ownerEventStream?: OwnerEventStreamSettings & { feedIntervalMs?: number };
    /** Everything by default; one side with CLIENT_API_PORT (main.ts). */
    serves?: ServedSide;
  },
): Promise<FastifyInstance> {
  const deps: AppDependencies = {
    ...dependencies,
    clock: dependencies.clock ?? systemClock,
    applicationEvents: dependencies.applicationEvents ?? createApplicationEvents(),
    activityEvents: dependencies.activityEvents ?? createActivityEvents(),
    ownerEvents: dependencies.ownerEvents ?? createOwnerEventHub(),
  };
  const { config } = deps;
  const serves = dependencies.serves ?? 'everything';
  const servesClientApi = serves !== 'console';
  const servesConsole = serves !== 'client-api';

  const isPrettyLog = dependencies.logger === undefined && config.logFormat === 'pretty';
  const app = Fastify({
    // The request serializer also when a caller brings its own logger settings (tests): a
    // download URL's token must never reach a log.
    logger:
      typeof dependencies.logger === 'object' && dependencies.logger !== null
        ? {
            ...dependencies.logger,
            serializers: { req: serializeRequestForLog, ...dependencies.logger.serializers },
          }
        : (dependencies.logger ?? {
            level: config.logLevel,
            redact: ['req.headers.cookie', 'req.headers.authorization', 'req.headers["x-api-key"]'],
            serializers: { req: serializeRequestForLog },
            ...(isPrettyLog ? { transport: prettyLogTransport } : {}),
          }),
    ...(isPrettyLog ? { logController: new OneLinePerRequest() } : {}),
    bodyLimit: config.bodyLimitBytes,
    frameworkErrors: answerFrameworkError,
    // Only the configured number of proxy hops may set the client address (X-Forwarded-For).
    trustProxy: trustNearestProxies(config.trustProxyHops),
    // genReqId vets the incoming header itself: an unchecked one could inject into logs.
    requestIdHeader: false,
    genReqId: (request) => requestIdFrom(request.headers['x-request-id']),
  });
  if (dependencies.onRoute) app.addHook('onRoute', dependencies.onRoute);
  if (dependencies.onContractViolation) {
    app.addHook(
      'onRoute',
      checkResponsesAgainstContracts(dependencies.onContractViolation, routeContracts),
    );
  }
  app.decorateRequest('owner', null);

  // Before anything is served: an instance that cannot open what the database holds sealed
  // would start, then answer 500 to every request that needs a key.
  await assertServerSecretMatchesDatabase(deps.database.db, config.serverSecret);

  // Listening before any route serves: a change another instance makes from now on reaches
  // this one's caches. Stopped when the app closes (before main.ts closes the database).
  const stopSharingApplicationChanges = await shareApplicationChanges({
    database: deps.database,
    applicationEvents: deps.applicationEvents,
    log: app.log,
    // Read when an announcement times out, by when the metrics below exist.
    onUnconfirmed: () => metrics?.countUnconfirmedAnnouncement(),
  });
  app.addHook('onClose', stopSharingApplicationChanges);
  app.decorate('ownerEvents', deps.ownerEvents);
  const stopSharingOwnerEvents = await shareOwnerEvents({
    database: deps.database,
    hub: deps.ownerEvents,
    log: app.log,
  });
  const ownerEventFeed = startOwnerEventFeed({
    database: deps.database,
    hub: deps.ownerEvents,
    log: app.log,
    intervalMs: dependencies.ownerEventStream?.feedIntervalMs,
  });
  app.addHook('onClose', async () => {
    await ownerEventFeed.stop();
    await stopSharingOwnerEvents();
  });

  registerErrorHandler(app);
  acceptEmptyJsonBodies(app);

  // Off unless asked for: then no hook runs and nothing is counted per request.
  const isMetricsEnabled = config.metrics.port !== null || config.metrics.token !== null;
  const metrics = isMetricsEnabled
    ? createAppMetrics({
        database: deps.database,
        log: app.log,
        // Read on scrape only, by when the recorder below exists.
        pendingActivityRows: () => activity.pendingLogCount,
      })
    : null;
  app.decorate('metrics', metrics);
  // Before any route: each route's onResponse hook is attached as it is registered.
  const observeUnmatched = metrics ? observeHttpRequests(app, metrics.httpRequests) : null;
  app.decorate('metricsListener', null);
  const metricsPort = config.metrics.port;
  if (metrics && metricsPort !== null) {
    // On ready, so a port already taken fails the start rather than being logged and ignored.
    app.addHook('onReady', async () => {
      app.metricsListener = await startMetricsListener({
        host: config.metrics.host,
        port: metricsPort,
        token: config.metrics.token,
        metrics,
        log: app.log,
      });
      const { address, port } = app.metricsListener.address;
      app.log.info(`metrics served at http://${address}:${port}/metrics`);
    });
    app.addHook('onClose', async () => {
      await app.metricsListener?.close();
    });
  }

  const destinationPolicy = destinationPolicyFor(config);
  const webhookDispatcher =
    dependencies.isWebhookDispatcherEnabled === false
      ? null
      : createWebhookDispatcher({
          db: deps.database.db,
          log: app.log,
          clock: deps.clock,
          serverSecret: config.serverSecret,
          isProduction: config.isProduction,
          pollIntervalMs: config.webhooks.pollIntervalMs,
          retryDelaysMs: config.webhooks.retryDelaysMs,
          // The SSRF guard again at delivery time: DNS may have changed since the save.
          lookup: guardedLookup(destinationPolicy),
          // Address literals, which connect without a lookup; names are checked by the lookup.
          refuseDestination: async (url) => {
            const verdict = checkWebhookDestinationWithoutDns(url, destinationPolicy);
            return verdict === null || verdict.isAllowed ? null : verdict.reason;
          },
          ...(metrics ? { onAttemptResult: metrics.countWebhookAttempt } : {}),
        });
  app.decorate('webhookDispatcher', webhookDispatcher);

  const mailTransport = config.mail.transport;
  const mailDispatcher =
    dependencies.isMailDispatcherEnabled === false || mailTransport === null
      ? null
      : createMailDispatcher({
          db: deps.database.db,
          log: app.log,
          transport: createMailTransport(mailTransport),
          from: config.mail.from,
          serverSecret: config.serverSecret,
          linkOrigin: mailLinkOrigin(config),
          pollIntervalMs: config.mail.pollIntervalMs,
          retryDelaysMs: config.mail.retryDelaysMs,
        });
  app.decorate('mailDispatcher', mailDispatcher);
  const mail: MailOutbox = {
    isAvailable: mailTransport !== null,
    // After the answer that queued it has left: the claim's query must not delay it.
    wake: () => setImmediate(() => mailDispatcher?.wake()),
  };

  const activity = createActivityRecorder({
    db: deps.database.db,
    log: app.log,
    events: deps.activityEvents,
    flushIntervalMs: config.activity.flushIntervalMs,
    batchSize: config.activity.batchSize,
    // Deliveries this instance just queued go out now, not at the next poll.
    onDeliveriesQueued: () => webhookDispatcher?.wake(),
  });
  app.decorate('activity', activity);
  // preClose runs before main.ts's onClose closes the database: requests still in flight
  // record after this flush, and then flush at once because the recorder is closed; the
  // onClose flush catches anything left when the database outlives the app (tests).
  app.addHook('preClose', () => activity.close());
  app.addHook('onClose', () => activity.close());
  // After the recorder's flush, before main.ts closes the database: sends in flight are
  // aborted and handed back (due again at once, for the next start or another instance).
  app.addHook('preClose', async () => {
    await webhookDispatcher?.stop();
    await mailDispatcher?.stop();
  });
  // The activity counters catch up with the rows every second where the console's reads are
  // served (those reads fold first anyway); a last fold after the recorder's flush.
  const counterFolder = servesConsole
    ? startCounterFolder({
        database: deps.database,
        log: app.log,
        intervalMs: config.activity.counterFoldIntervalMs,
      })
    : null;
  app.addHook('preClose', async () => {
    await counterFolder?.stop();
  });
  // Imports run after their 202; a batch in flight finishes before the database closes.
  const runningImports = createRunningImports();
  app.addHook('preClose', () => runningImports.settled());

  // Background upkeep runs where the console is served: with CLIENT_API_PORT, on the workers
  // of lower CPU priority, never on the client API's.
  const runsUpkeep = dependencies.isRetentionSweepEnabled !== false && servesConsole;
  const retentionSweeper = !runsUpkeep
    ? null
    : startRetentionSweeper({
        database: deps.database,
        clock: deps.clock,
        log: app.log,
        policy: {
          sessionMs: config.retention.sessionMs,
          activityLogMs: config.retention.activityLogMs,
          batchSize: RETENTION_BATCH_SIZE,
          pauseMs: RETENTION_PAUSE_MS,
        },
        intervalMs: config.retention.sweepIntervalMs,
        startDelayMs: RETENTION_START_DELAY_MS,
      });
  app.decorate('retentionSweeper', retentionSweeper);
  // Keys from before prefixes were kept get theirs in the background, never holding up start-up.
  const licenseKeyPrefixBackfill = !runsUpkeep
    ? null
    : startLicenseKeyPrefixBackfill({
        database: deps.database,
        clock: deps.clock,
        log: app.log,
        serverSecret: config.serverSecret,
        startDelayMs: RETENTION_START_DELAY_MS,
      });
  app.addHook('preClose', async () => {
    await licenseKeyPrefixBackfill?.stop();
  });
  // Queued where upkeep runs (once each, however many instances sweep), sent by any worker.
  const expiryReminderSweep =
    runsUpkeep && mail.isAvailable
      ? startExpiryReminderSweep({ db: deps.database.db, log: app.log, wakeMail: mail.wake })
      : null;
  app.addHook('preClose', async () => {
    await expiryReminderSweep?.stop();
  });
  // Before main.ts closes the database: a running sweep stops at its next batch.
  app.addHook('preClose', async () => {
    await retentionSweeper?.stop();
  });
  const liveSessionSampler = !runsUpkeep
    ? null
    : startLiveSessionSampler({
        database: deps.database,
        clock: deps.clock,
        log: app.log,
        intervalMs: LIVE_SESSION_SAMPLE_INTERVAL_MS,
      });
  app.decorate('liveSessionSampler', liveSessionSampler);
  app.addHook('preClose', async () => {
    await liveSessionSampler?.stop();
  });

  // Sibling scopes, and no hook on the root: every request pays only its own scope's hooks.
  // The client API (the hot path) answers desktop programs with signed JSON and does the
  // request-id header and the text check in its own one hook and handlers. The
  // rest sets the request id and checks paths and query strings in hooks; its browser scope
  // carries what only browsers need (helmet's headers, the cookie parser).
  const fileStorage = createDatabaseFileStorage(deps.database.db);
  if (servesClientApi) {
    const pipeline = await registerClientApiRoutes(app, {
      ...deps,
      activity,
      metrics,
      observeUnmatched,
      mail,
    });
    // KeyAuth's client libraries, answered by the same pipeline and verbs as v1.
    await registerKeyauthApi(app, { ...deps, pipeline, activity, storage: fileStorage });
  } else {
    registerClientApiElsewhere(app);
  }
  await app.register(async (rest) => {
    rest.addHook('onRequest', answerRequestId);
    refuseUncleanRequestText(rest);
    if (observeUnmatched) rest.addHook('onResponse', observeUnmatched.hook);
    if (servesClientApi) registerDownloadRoutes(rest, { ...deps, storage: fileStorage });
    registerMetricsRoute(rest, { metrics, config });
    // Bearer tokens only, beside (not inside) the browser's scope: no cookie is ever read there.
    if (servesConsole)
      await registerManagementApi(rest, {
        ...deps,
        activity,
        mail,
        runningImports,
        routeTable: { contracts: routeContracts, permissions: routePermissions },
      });
    // A shop's signed events: no cookie, no key of ours; the connection's URL is the credential.
    if (servesConsole) {
      await registerShopWebhookRoutes(rest, {
        db: deps.database.db,
        clock: deps.clock,
        serverSecret: config.serverSecret,
        stripeApiUrl: config.stripeApiUrl,
        mail,
        activity,
        applicationEvents: deps.applicationEvents,
      });
    }
    await rest.register(registerBrowserScope);
  });
  return app;

  async function registerBrowserScope(browser: FastifyInstance): Promise<void> {
    await registerSecurityHeaders(browser, config);
    await browser.register(fastifyCookie);
    registerHealthRoutes(browser, deps);
    if (!servesConsole) return registerConsoleElsewhere(browser);
    registerRuntimeConfigRoute(browser, deps);
    await registerApiReference(browser, routeContracts);
    registerPublicAuthRoutes(browser, deps);
    await registerPortalRoutes(browser, { ...deps, activity, mail });
    registerSdkPackages(browser, config.sdkPackagesDir);
    await browser.register(async (ownerScope) => {
      ownerScope.addHook('preHandler', createOwnerGuard(deps));
      ownerScope.addHook('onSend', publishConsoleChanges(deps.ownerEvents));
      registerOwnerEventRoutes(ownerScope, {
        ...deps,
        ownerEventFeed,
        streamSettings: dependencies.ownerEventStream,
      });
      registerOwnerAuthRoutes(ownerScope);
      registerDashboardRoutes(ownerScope);
      registerActivityChartRoutes(ownerScope);
      registerApplicationRoutes(ownerScope, { ...deps, mail });
      registerAppUserRoutes(ownerScope, { ...deps, activity });
      registerDeviceRoutes(ownerScope, { ...deps, activity });
      registerRoutes(ownerScope, planRoutes, deps);
      registerRoutes(ownerScope, seatRoutes, deps);
      registerLicenseRoutes(ownerScope, { ...deps, activity, mail });
      registerFileRoutes(ownerScope, { ...deps, storage: fileStorage });
      registerImportRoutes(ownerScope, { ...deps, runningImports });
      registerSubscriptionRoutes(ownerScope, deps);
      registerVariableRoutes(ownerScope);
      registerBlacklistRoutes(ownerScope);
      registerActivityRoutes(ownerScope);
      registerWebhookRoutes(ownerScope, deps);
      registerMailRoutes(ownerScope, { ...deps, mail });
      registerShopRoutes(ownerScope, { ...deps, activity, mail });
      registerIntegrationRoutes(ownerScope, deps);
      registerAdminRoutes(ownerScope, deps);
      registerApiTokenRoutes(ownerScope, deps);
    });
    await registerConsoleAssets(browser, config.consoleDistDir);
  }
}

/**
 * Every answer names its request (X-Request-Id). Set before the handler runs (a synchronous
 * hook, no promise per request); Fastify keeps headers set this early on error replies too.
 */
function answerRequestId(
  request: FastifyRequest,
  reply: FastifyReply,
  done: (error?: Error) => void,
): void {
  reply.header('x-request-id', request.id);
  done();
}
