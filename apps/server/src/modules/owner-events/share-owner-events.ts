import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { ownerEventSchema } from '@latchkey/contracts';
import type { DatabaseConnection } from '../../db/client.ts';
import type { OwnerEventHub } from '../../events/owner-event-hub.ts';

/** The NOTIFY channel that carries published owner events to the other instances. */
export const OWNER_EVENTS_CHANNEL = 'latchkey_owner_events';

/**
 * NOTIFY payloads must stay under 8,000 bytes. Published events (bulk progress, a change made
 * in a console) are far smaller; activity rows never travel this way (each instance reads
 * them from the log itself: owner-event-feed.ts).
 */
const MAX_PAYLOAD_BYTES = 7_900;

const announcementSchema = z.object({
  instance: z.string(),
  accountId: z.string(),
  event: ownerEventSchema,
});

/**
 * Connects the hub to the other instances on the same database: what one publishes reaches
 * every instance's open streams of that account. Delivery is best effort, like the stream
 * itself (an event missed while a listener reconnects is covered by the console refetching
 * when its stream comes back). Answers once listening; the result stops both directions.
 */
export async function shareOwnerEvents(options: {
  database: DatabaseConnection;
  hub: OwnerEventHub;
  log: FastifyBaseLogger;
}): Promise<() => Promise<void>> {
  const { database, hub, log } = options;
  const instance = randomUUID();
  // Its own connection name: the cache announcements count LISTENER_NAME's connections as the
  // instances that must acknowledge, and this one never does.
  const stopListening = await database.listen(
    OWNER_EVENTS_CHANNEL,
    {
      onPayload(payload) {
        let announcement: z.infer<typeof announcementSchema>;
        try {
          announcement = announcementSchema.parse(JSON.parse(payload));
        } catch (error) {
          log.warn({ err: error }, 'ignored a malformed owner event notification');
          return;
        }
        // Our own was delivered here when it was published.
        if (announcement.instance === instance) return;
        hub.deliverLocally(announcement.accountId, announcement.event);
      },
      onInterrupted() {
        log.warn('lost the owner event channel: consoles may miss published events meanwhile');
      },
      onResumed() {
        log.info('owner event channel back');
      },
    },
    'latchkey-owner-events',
  );
  hub.setForwarder(async (accountId, event) => {
    const payload = JSON.stringify({ instance, accountId, event });
    if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES) {
      log.warn(
        { type: event.type },
        'an owner event too large to share was not sent to other instances',
      );
      return;
    }
    try {
      await database.query({
        text: 'select pg_notify($1, $2)',
        values: [OWNER_EVENTS_CHANNEL, payload],
      });
    } catch (error) {
      log.warn({ err: error, type: event.type }, 'could not share an owner event');
    }
  });
  return async () => {
    hub.setForwarder(null);
    await stopListening();
  };
}
