import type { RouteDefinition } from '../../http/route-definition.ts';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import { AppError } from '../../lib/errors.ts';
import type { DatabaseConnection } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { findOwnerBySession, sessionCookieName } from '../auth/index.ts';
import type { OwnerEventFeed } from './owner-event-feed.ts';
import type { OwnerEventHub } from '../../events/owner-event-hub.ts';
import { openOwnerEventStream } from './owner-event-stream.ts';

export interface OwnerEventStreamSettings {
  heartbeatIntervalMs?: number;
  maxBufferedBytes?: number;
  maxDurationMs?: number;
}

/**
 * GET /api/events: the signed-in console's live stream. The owner guard has checked
 * the session like any owner read; the stream carries only the account's own events (the hub
 * is keyed by the guard's account, never by anything the request says).
 */
export function registerOwnerEventRoutes(
  app: FastifyInstance,
  deps: {
    config: Config;
    database: DatabaseConnection;
    clock: Clock;
    ownerEvents: OwnerEventHub;
    ownerEventFeed: OwnerEventFeed;
    streamSettings?: OwnerEventStreamSettings;
  },
) {
  const openStreams = new Set<() => void>();
  const cookieName = sessionCookieName(deps.config.isProduction);
  app.addHook('preClose', (done) => {
    for (const end of openStreams) end();
    done();
  });

  app.get('/api/events', async (request, reply) => {
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
  });
}

/** The module's routes defined once (route-definition.ts); the rest are registered above. */
export const ownerEventRoutes: readonly RouteDefinition[] = [];
