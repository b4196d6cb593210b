import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import { AppError } from '../../lib/errors.ts';
import type { DatabaseConnection } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { registerRoutes, routeDefiner } from '../../http/route-definition.ts';
import { findOwnerBySession, sessionCookieName } from '../auth/index.ts';
import type { OwnerEventFeed } from './owner-event-feed.ts';
import type { OwnerEventHub } from '../../events/owner-event-hub.ts';
import { openOwnerEventStream } from './owner-event-stream.ts';

export interface OwnerEventStreamSettings {
  heartbeatIntervalMs?: number;
  maxBufferedBytes?: number;
  maxDurationMs?: number;
}

interface OwnerEventDependencies {
  config: Config;
  database: DatabaseConnection;
  clock: Clock;
  ownerEvents: OwnerEventHub;
  ownerEventFeed: OwnerEventFeed;
  streamSettings?: OwnerEventStreamSettings;
}

interface OwnerEventServices extends OwnerEventDependencies {
  /** How each open stream is ended when the server closes. */
  openStreams: Set<() => void>;
  cookieName: string;
}

const defineRoute = routeDefiner<OwnerEventServices>();

/**
 * GET /api/events: the signed-in console's live stream. The owner guard has checked
 * the session like any owner read; the stream carries only the account's own events (the hub
 * is keyed by the guard's account, never by anything the request says).
 */
export const ownerEventRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/events',
    permission: 'signed_in',
    caller: 'owner',
    tag: 'Dashboard',
    summary: 'The console\u2019s live stream of the account\u2019s events',
    description:
      'Server-Sent Events. Each message\u2019s `event` is `activity` (a new activity-log row, as the log lists it), `stats` (an application\u2019s numbers moved), `app_user` or `application` (created, updated or deleted in a console), or `bulk_progress` (where a bulk action stands); its `data` is JSON naming what changed (`OwnerEvent` in the contracts). A comment line every 25 s keeps it open. Only the signed-in account\u2019s events; at most `SSE_MAX_CONNECTIONS_PER_ACCOUNT` streams per account on one instance (the next is 429); a reader that falls more than 1 MiB behind is disconnected.',
    responses: { 200: { description: 'An endless event stream.', mediaType: 'text/event-stream' } },
    errors: [429],
    handle: async ({ request, reply }, deps) => {
      const { openStreams, cookieName } = deps;
      const owner = request.owner!;
      const accountId = owner.account.id;
      if (deps.ownerEvents.listenerCount(accountId) >= deps.config.sseMaxConnectionsPerAccount) {
        reply.header('retry-after', '30');
        throw new AppError(
          'RATE_LIMITED',
          `At most ${deps.config.sseMaxConnectionsPerAccount} live streams per account are open`,
        );
      }
      const sessionToken = request.cookies[cookieName]!;
      const stream = openOwnerEventStream({
        hub: deps.ownerEvents,
        accountId,
        ...deps.streamSettings,
        isStillAuthorized: async () => {
          const account = await findOwnerBySession({
            ctx: { db: deps.database.db, log: request.log, clock: deps.clock },
            input: { sessionToken },
          });
          return account?.id === accountId;
        },
        onEnd: (reason) => {
          openStreams.delete(endStream);
          if (reason === 'slow_reader' || reason === 'unauthorized')
            request.log.info({ reason }, 'ended a console event stream');
        },
      });
      const endStream = () => stream.end('closed');
      openStreams.add(endStream);
      reply.raw.on('close', endStream);
      // Subscribed first, then the feed's start: no row falls between the two.
      await deps.ownerEventFeed.isReady();
      return (
        reply
          .type('text/event-stream; charset=utf-8')
          .header('cache-control', 'no-store')
          // Proxies such as nginx would otherwise hold events back to fill their buffers.
          .header('x-accel-buffering', 'no')
          .send(stream.body)
      );
    },
  }),
];

/** The console's live stream. Registered inside the owner-guarded scope. */
export function registerOwnerEventRoutes(app: FastifyInstance, deps: OwnerEventDependencies) {
  const { config, database, clock, ownerEvents, ownerEventFeed, streamSettings } = deps;
  const openStreams = new Set<() => void>();
  const cookieName = sessionCookieName(config.isProduction);
  app.addHook('preClose', (done) => {
    for (const end of openStreams) end();
    done();
  });
  registerRoutes(app, ownerEventRoutes, {
    config,
    database,
    clock,
    ownerEvents,
    ownerEventFeed,
    streamSettings,
    openStreams,
    cookieName,
  });
}
