import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { DatabaseConnection } from '../../db/client.ts';
import type { ApplicationEvents } from './application-events.ts';

/** The NOTIFY channel instances on one database use to tell each other of changes. */
export const APPLICATION_CHANGES_CHANNEL = 'latchkey_application_changes';

/** A NOTIFY payload must stay under 8,000 bytes: at most this many session ids (37 bytes each). */
const SESSIONS_PER_NOTIFICATION = 100;

const notificationSchema = z.discriminatedUnion('kind', [
  z.object({
    instance: z.string(),
    kind: z.enum(['updated', 'deleted']),
    applicationId: z.number().int(),
    apiKey: z.string(),
  }),
  z.object({
    instance: z.string(),
    kind: z.literal('end-user-changed'),
    applicationId: z.number().int(),
    userId: z.string(),
  }),
  z.object({
    instance: z.string(),
    kind: z.literal('sessions-ended'),
    applicationId: z.number().int(),
    sessionIds: z.array(z.string()).max(SESSIONS_PER_NOTIFICATION),
  }),
]);
type Notification = z.infer<typeof notificationSchema>;

/**
 * Carries this instance's application changes to every other instance on the same database
 * (PostgreSQL NOTIFY, delivered within milliseconds) and theirs to this one's listeners, so a
 * paused or deleted application, or a paused or deleted end user, stops being served
 * everywhere at once rather than when another instance's cache entry expires. Answers once listening; the result stops both directions.
 */
export async function shareApplicationChanges(options: {
  database: DatabaseConnection;
  applicationEvents: ApplicationEvents;
  log: FastifyBaseLogger;
}): Promise<() => Promise<void>> {
  const { database, applicationEvents, log } = options;
  const instance = randomUUID();

  const stopListening = await database.listen(APPLICATION_CHANGES_CHANNEL, {
    onPayload(payload) {
      let message: Notification;
      try {
        message = notificationSchema.parse(JSON.parse(payload));
      } catch (error) {
        log.warn({ err: error }, 'ignored a malformed application change notification');
        return;
      }
      const { instance: sender, ...change } = message;
      if (sender === instance) return;
      applicationEvents.emitChange({ ...change, fromOtherInstance: true }, log);
    },
    onInterrupted() {
      log.warn('lost the application change channel: dropping every cached application');
      applicationEvents.emitChange({ kind: 'resync' }, log);
    },
  });

  const publish = (notification: Notification) => {
    // After the change is committed; if this NOTIFY fails, other instances still drop the
    // entry when its TTL (CLIENT_API_CACHE_TTL_SECONDS) runs out.
    database
      .query({
        text: 'select pg_notify($1, $2)',
        values: [APPLICATION_CHANGES_CHANNEL, JSON.stringify(notification)],
      })
      .catch((error: unknown) => {
        log.error({ err: error, notification }, 'could not tell other instances of a change');
      });
  };
  const stopPublishing = applicationEvents.onChange((change) => {
    if (change.kind === 'resync' || change.fromOtherInstance) return;
    if (change.kind !== 'sessions-ended') return publish({ ...change, instance });
    for (let start = 0; start < change.sessionIds.length; start += SESSIONS_PER_NOTIFICATION) {
      const sessionIds = change.sessionIds.slice(start, start + SESSIONS_PER_NOTIFICATION);
      publish({ ...change, sessionIds, instance });
    }
  });

  return async () => {
    stopPublishing();
    await stopListening();
  };
}
