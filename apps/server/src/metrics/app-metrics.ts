import type { FastifyBaseLogger } from 'fastify';
import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import type { DatabaseConnection } from '../db/client.ts';
import { passwordHashLoad } from '../lib/password-hashing.ts';
import { HotPathCounter } from './hot-path-counter.ts';
import { HotPathHistogram } from './hot-path-histogram.ts';

export const METRICS_PREFIX = 'latchkey_';

/**
 * The results a webhook delivery attempt is counted under: sent, failed with a retry
 * scheduled, or failed for good (the webhook dispatcher reports each attempt's).
 */
export type WebhookAttemptResult = 'success' | 'retry' | 'failure';

/** Seconds; verify answers in well under a millisecond, an owner export may take seconds. */
export const HTTP_DURATION_BUCKETS = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

/**
 * One app instance's metrics. Tests build many apps in one process, so each has its own
 * Registry (never prom-client's global one); what describes the process itself (CPU,
 * memory, event-loop delay, GC) is collected once per process and printed beside it.
 */
export interface AppMetrics {
  readonly contentType: string;
  /** The Prometheus text exposition of this instance and its process. */
  render(): Promise<string>;
  /** latency per route pattern, method and status class: see observeHttpRequests. */
  readonly httpRequests: HotPathHistogram;
  /** client-API answers per route and `code`. */
  readonly clientResponses: HotPathCounter;
  countWebhookAttempt(result: WebhookAttemptResult): void;
  /** An owner's change whose announcement to other instances was not heard back in time. */
  countUnconfirmedAnnouncement(): void;
}

export interface AppMetricsSources {
  database: DatabaseConnection;
  log: FastifyBaseLogger;
  /** The activity recorder's group-commit backlog (rows accepted, not yet written). */
  pendingActivityRows: () => number;
}

export function createAppMetrics(sources: AppMetricsSources): AppMetrics {
  const registry = new Registry();
  const name = (suffix: string) => `${METRICS_PREFIX}${suffix}`;

  const httpRequests = new HotPathHistogram(
    name('http_request_duration_seconds'),
    'HTTP requests by route pattern (unmatched: no route, e.g. 404s and console pages), method and status class; _count is the number of requests.',
    ['route', 'method', 'status_class'],
    HTTP_DURATION_BUCKETS,
  ).registerIn(registry);

  const clientResponses = new HotPathCounter({
    name: name('client_api_responses_total'),
    help: 'Client API (/api/v1) answers by route and the code they carry (WRONG_PASSWORD, OK, RATE_LIMITED...).',
    labelNames: ['route', 'code'],
    registry,
  });

  const webhookAttempts = new HotPathCounter({
    name: name('webhook_delivery_attempts_total'),
    help: 'Webhook delivery attempts by result: success, retry (failed, another attempt is scheduled) or failure (failed for good).',
    labelNames: ['result'],
    registry,
  });
  const attemptCells = {
    success: webhookAttempts.cell(['success']),
    retry: webhookAttempts.cell(['retry']),
    failure: webhookAttempts.cell(['failure']),
  };

  const unconfirmedAnnouncements = new HotPathCounter({
    name: name('change_announcements_unconfirmed_total'),
    help: "Owner changes (a paused user, a deactivated application...) answered before their NOTIFY came back to this instance's listener within 250 ms, or whose NOTIFY failed: other instances may have learnt of them later.",
    labelNames: [],
    registry,
  });
  const unconfirmedCell = unconfirmedAnnouncements.cell([]);

  new Gauge({
    name: name('webhook_queue_deliveries'),
    help: 'Pending webhook deliveries in the shared outbox (the same for every instance): due now, or scheduled later (a retry waiting, or a send in flight).',
    labelNames: ['state'],
    registers: [registry],
    // One count on scrape, from the dispatcher's partial index, never per request.
    async collect() {
      try {
        const { rows } = await sources.database.query({
          text: `select count(*) filter (where next_attempt_at <= now())::int as due,
                        count(*) filter (where next_attempt_at > now())::int as scheduled
                 from webhook_deliveries where status = 'pending'`,
        });
        this.set({ state: 'due' }, Number(rows[0]?.due ?? 0));
        this.set({ state: 'scheduled' }, Number(rows[0]?.scheduled ?? 0));
      } catch (error) {
        // No value is better than a stale one: an absent series is what alerts can see.
        this.reset();
        sources.log.warn({ err: error }, 'metrics: webhook queue depth unavailable');
      }
    },
  });

  new Gauge({
    name: name('activity_pending_rows'),
    help: 'Activity log rows accepted by this instance and waiting for their group commit.',
    registers: [registry],
    collect() {
      this.set(sources.pendingActivityRows());
    },
  });

  new Gauge({
    name: name('password_hashes'),
    help: 'Password hashes (login, register, a device reset...) of this instance: running (at most one per core), or waiting for a core.',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const { running, waiting } = passwordHashLoad();
      this.set({ state: 'running' }, running);
      this.set({ state: 'waiting' }, waiting);
    },
  });

  // Only a node-postgres pool has something to report; PGlite is one in-process session.
  if (sources.database.poolUsage() !== null) {
    const pool = (suffix: string, help: string, read: (usage: PoolUsage) => number) =>
      new Gauge({
        name: name(`database_pool_${suffix}`),
        help,
        registers: [registry],
        collect() {
          const usage = sources.database.poolUsage();
          if (usage) this.set(read(usage));
        },
      });
    pool(
      'connections',
      'Open PostgreSQL connections of this instance, idle or busy.',
      (usage) => usage.total,
    );
    pool('idle_connections', 'Open PostgreSQL connections not in use.', (usage) => usage.idle);
    pool(
      'waiting_queries',
      'Queries waiting for a PostgreSQL connection: the pool is exhausted, or opening one.',
      (usage) => usage.waiting,
    );
    pool('max_connections', 'DATABASE_POOL_SIZE.', (usage) => usage.max);
  }

  const processMetrics = processRegistry();
  return {
    contentType: registry.contentType,
    render: () => Registry.merge([processMetrics, registry]).metrics(),
    httpRequests,
    clientResponses,
    countWebhookAttempt(result) {
      attemptCells[result].inc();
    },
    countUnconfirmedAnnouncement() {
      unconfirmedCell.inc();
    },
  };
}

type PoolUsage = NonNullable<ReturnType<DatabaseConnection['poolUsage']>>;

let sharedProcessRegistry: Registry | null = null;

/**
 * prom-client's default metrics (CPU, memory, handles, GC, event-loop delay through
 * monitorEventLoopDelay) start observers that are never stopped: once per process, not
 * once per app, or every test's app would leave its own behind.
 */
function processRegistry(): Registry {
  if (!sharedProcessRegistry) {
    sharedProcessRegistry = new Registry();
    collectDefaultMetrics({ register: sharedProcessRegistry, prefix: METRICS_PREFIX });
  }
  return sharedProcessRegistry;
}
