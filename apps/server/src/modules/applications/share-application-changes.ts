import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { LISTENER_NAME, type DatabaseConnection } from '../../db/client.ts';
import type { ApplicationEvents } from '../../events/application-events.ts';

/** The NOTIFY channel instances on one database use to tell each other of changes. */
export const APPLICATION_CHANGES_CHANNEL = 'latchkey_application_changes';

/**
 * How long an owner's answer waits for its announcement to be confirmed (its own echo, and
 * every other listening instance's acknowledgement). Past this it answers anyway (the change
 * is committed) and counts the miss: an instance that is slow or reconnecting must not hold
 * every console.
 */
export const ANNOUNCEMENT_CONFIRM_TIMEOUT_MS = 250;

/** A NOTIFY payload must stay under 8,000 bytes: at most this many session ids (37 bytes each). */
const SESSIONS_PER_NOTIFICATION = 100;
/** The same bound for a bulk action's end-user ids (UUIDs too: about 3,900 bytes a chunk). */
const USERS_PER_NOTIFICATION = 100;

const changeNotificationSchema = z.discriminatedUnion('kind', [
  z.object({
    instance: z.string(),
    sequence: z.number().int().optional(),
    kind: z.enum(['updated', 'deleted']),
    applicationId: z.number().int(),
    apiKey: z.string(),
  }),
  z.object({
    instance: z.string(),
    sequence: z.number().int().optional(),
    kind: z.literal('end-user-changed'),
    applicationId: z.number().int(),
    userId: z.string(),
  }),
  z.object({
    instance: z.string(),
    sequence: z.number().int().optional(),
    kind: z.literal('end-users-changed'),
    applicationId: z.number().int(),
    userIds: z.array(z.string()).max(USERS_PER_NOTIFICATION),
  }),
  z.object({
    instance: z.string(),
    sequence: z.number().int().optional(),
    kind: z.literal('sessions-ended'),
    applicationId: z.number().int(),
    sessionIds: z.array(z.string()).max(SESSIONS_PER_NOTIFICATION),
  }),
]);
type ChangeNotification = z.infer<typeof changeNotificationSchema>;

/** An instance has applied another's change (`sequence` of instance `to`) to its caches. */
const acknowledgementSchema = z.object({
  instance: z.string(),
  kind: z.literal('ack'),
  to: z.string(),
  sequence: z.number().int(),
});

const notificationSchema = z.union([changeNotificationSchema, acknowledgementSchema]);

/**
 * The owner's changes are acknowledged; a client's own session end (frequent, and no
 * revocation) is not, so it costs no extra notifications.
 */
const isAcknowledged = (notification: ChangeNotification) => notification.kind !== 'sessions-ended';

interface PendingAnnouncement {
  isEchoed: boolean;
  acknowledgements: number;
  /** How many other instances were listening when it was sent; null until known. */
  expectedAcknowledgements: number | null;
  /** `isWithdrawn`: no NOTIFY was sent after all (its statement changed nothing): not a miss. */
  settle(isConfirmed: boolean, isWithdrawn?: boolean): void;
}

/**
 * Carries this instance's application changes to every other instance on the same database
 * (PostgreSQL NOTIFY, delivered within milliseconds) and theirs to this one's listeners, so a
 * paused or deleted application, or a paused or deleted end user, stops being served
 * everywhere rather than when another instance's cache entry expires. Answers once
 * listening; the result stops both directions.
 *
 * The promise of each owner's announcement settles once it is confirmed: this instance's own
 * listener has heard it back, and every other instance listening when it was sent (counted
 * in pg_stat_activity in the NOTIFY's own statement) has acknowledged it, which an instance
 * does only after dropping what the change made stale. The owner's answer waits for it,
 * so when an owner reads "paused", no instance still serves the user from its
 * caches. The wait is bounded by ANNOUNCEMENT_CONFIRM_TIMEOUT_MS and a miss is counted
 * (`onUnconfirmed`): an instance whose listener was reconnecting drops every cache when it
 * is back, but one that is merely slow may lag by up to its own delay.
 */
export async function shareApplicationChanges(options: {
  database: DatabaseConnection;
  applicationEvents: ApplicationEvents;
  log: FastifyBaseLogger;
  /** An announcement not confirmed in time (or whose NOTIFY failed). */
  onUnconfirmed?: () => void;
  confirmTimeoutMs?: number;
}): Promise<() => Promise<void>> {
  const { database, applicationEvents, log } = options;
  const confirmTimeoutMs = options.confirmTimeoutMs ?? ANNOUNCEMENT_CONFIRM_TIMEOUT_MS;
  const instance = randomUUID();
  let lastSequence = 0;
  const pending = new Map<number, PendingAnnouncement>();

  const settleIfConfirmed = (announcement: PendingAnnouncement) => {
    if (
      announcement.isEchoed &&
      announcement.expectedAcknowledgements !== null &&
      announcement.acknowledgements >= announcement.expectedAcknowledgements
    ) {
      announcement.settle(true);
    }
  };

  const notify = (payload: object) =>
    database.query({
      name: 'share_application_change',
      text: 'select pg_notify($1, $2)',
      values: [APPLICATION_CHANGES_CHANNEL, JSON.stringify(payload)],
    });

  const stopListening = await database.listen(APPLICATION_CHANGES_CHANNEL, {
    onPayload(payload) {
      let message: z.infer<typeof notificationSchema>;
      try {
        message = notificationSchema.parse(JSON.parse(payload));
      } catch (error) {
        log.warn({ err: error }, 'ignored a malformed application change notification');
        return;
      }
      if (message.kind === 'ack') {
        if (message.to !== instance) return;
        const announcement = pending.get(message.sequence);
        if (!announcement) return;
        announcement.acknowledgements += 1;
        settleIfConfirmed(announcement);
        return;
      }
      const { instance: sender, sequence, ...change } = message;
      if (sender === instance) {
        const announcement = sequence === undefined ? undefined : pending.get(sequence);
        if (!announcement) return;
        announcement.isEchoed = true;
        settleIfConfirmed(announcement);
        return;
      }
      // The caches are dropped synchronously here, so the acknowledgement follows them.
      void applicationEvents.emitChange({ ...change, fromOtherInstance: true }, log);
      if (sequence !== undefined && isAcknowledged(message)) {
        notify({ instance, kind: 'ack', to: sender, sequence }).catch((error: unknown) => {
          log.warn({ err: error }, 'could not acknowledge a change announcement');
        });
      }
    },
    onInterrupted() {
      log.warn(
        'lost the application change channel: dropping every cache, and caching nothing until it is back',
      );
      void applicationEvents.emitChange({ kind: 'resync', isLinked: false }, log);
    },
    onResumed() {
      log.info('application change channel back: dropping what was read while it was down');
      void applicationEvents.emitChange({ kind: 'resync', isLinked: true }, log);
    },
  });

  /** The other instances' listeners now: those that will acknowledge (PostgreSQL only). */
  const countOthers =
    database.kind === 'postgres' ? `, count_other_listeners('${LISTENER_NAME}') as others` : '';

  /**
   * Waits for an announcement's confirmation from now on: `confirmed` settles when it is (or
   * when the bounded wait runs out). Send `payload`, then call `sent` with the count of other
   * listening instances the NOTIFY's statement made, `withdraw` if no NOTIFY went out, or
   * `failed` if sending it failed.
   */
  const track = (notification: ChangeNotification) => {
    lastSequence += 1;
    const sequence = lastSequence;
    let announcement!: PendingAnnouncement;
    const confirmed = new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        log.warn(
          { notification, timeoutMs: confirmTimeoutMs },
          'a change announcement was not confirmed in time: answering anyway',
        );
        announcement.settle(false);
      }, confirmTimeoutMs);
      timer.unref();
      announcement = {
        isEchoed: false,
        acknowledgements: 0,
        // On PGlite every instance shares one session, whose notification reaches all their
        // listeners in one go: the echo alone confirms it.
        expectedAcknowledgements: countOthers === '' || !isAcknowledged(notification) ? 0 : null,
        settle(isConfirmed, isWithdrawn = false) {
          clearTimeout(timer);
          pending.delete(sequence);
          if (!isConfirmed && !isWithdrawn) options.onUnconfirmed?.();
          resolve();
        },
      };
      pending.set(sequence, announcement);
    });
    return {
      payload: JSON.stringify({ ...notification, sequence }),
      confirmed,
      sent(otherListeners: number) {
        if (announcement.expectedAcknowledgements !== null) return;
        announcement.expectedAcknowledgements = Math.max(0, otherListeners);
        settleIfConfirmed(announcement);
      },
      /** No NOTIFY went out after all (its statement changed nothing): not a miss. */
      withdraw: () => announcement.settle(false, true),
      failed(error: unknown) {
        log.error({ err: error, notification }, 'could not tell other instances of a change');
        announcement.settle(false);
      },
    };
  };

  const publish = (notification: ChangeNotification): Promise<void> => {
    const announcement = track(notification);
    // After the change is committed; if this NOTIFY fails, other instances still drop the
    // entry when its TTL (CLIENT_API_CACHE_TTL_SECONDS) runs out.
    database
      .query({
        // Named, so PostgreSQL plans it once per connection: every owner change announces, and
        // planning cost more than running it (~200 µs).
        name: 'announce_application_change',
        text: `select pg_notify($1, $2)${countOthers}`,
        values: [APPLICATION_CHANGES_CHANNEL, announcement.payload],
      })
      .then(({ rows }) => announcement.sent(Number(rows[0]?.others ?? 0)))
      .catch((error: unknown) => announcement.failed(error));
    return announcement.confirmed;
  };

  const stopAnnouncingWithin = applicationEvents.setAnnouncer((change) => {
    const announcement = track({ ...change, instance });
    return {
      channel: APPLICATION_CHANGES_CHANNEL,
      payload: announcement.payload,
      listenerName: LISTENER_NAME,
      settle(otherListeners) {
        if (otherListeners === null) announcement.withdraw();
        else announcement.sent(otherListeners);
        return announcement.confirmed;
      },
    };
  });
  const stopPublishing = applicationEvents.onChange((change) => {
    if (change.kind === 'resync' || change.fromOtherInstance) return;
    if (change.kind === 'end-user-changed' && change.isAnnounced) return;
    const chunks: Promise<void>[] = [];
    if (change.kind === 'sessions-ended') {
      for (let start = 0; start < change.sessionIds.length; start += SESSIONS_PER_NOTIFICATION) {
        const sessionIds = change.sessionIds.slice(start, start + SESSIONS_PER_NOTIFICATION);
        chunks.push(publish({ ...change, sessionIds, instance }));
      }
    } else if (change.kind === 'end-users-changed') {
      // A batch of 1,000 users is ten NOTIFYs sent together (one round of acknowledgements),
      // not a thousand announcements one after another.
      for (let start = 0; start < change.userIds.length; start += USERS_PER_NOTIFICATION) {
        const userIds = change.userIds.slice(start, start + USERS_PER_NOTIFICATION);
        chunks.push(publish({ ...change, userIds, instance }));
      }
    } else {
      return publish({ ...change, instance });
    }
    return Promise.all(chunks).then(() => undefined);
  });

  return async () => {
    stopPublishing();
    stopAnnouncingWithin();
    await stopListening();
  };
}
