import type { FastifyBaseLogger } from 'fastify';

/**
 * An application's settings changed or it was deleted, one of its end users changed, or some
 * of its client sessions ended, here
 * or (`fromOtherInstance`) in another instance on the same database; or `resync`: changes may have been missed (the
 * link to the other instances was interrupted), so anything cached may be stale.
 */
export type ApplicationChange =
  | {
      kind: 'updated' | 'deleted';
      applicationId: number;
      apiKey: string;
      fromOtherInstance?: true;
    }
  | {
      /** One of its end users was changed (standing, HWID…) or deleted by the owner. */
      kind: 'end-user-changed';
      applicationId: number;
      userId: string;
      fromOtherInstance?: true;
      /**
       * The statement that made the change also sent its announcement to the other instances
       * (`announceWithin`): this instance's listeners only drop what it made stale.
       */
      isAnnounced?: true;
    }
  | {
      /**
       * Many of its end users were changed or deleted at once (a bulk action's batch): one
       * change instead of one per user, carried to other instances in chunks of ids.
       */
      kind: 'end-users-changed';
      applicationId: number;
      userIds: string[];
      fromOtherInstance?: true;
    }
  | {
      /**
       * Client sessions of it ended while their user stays in good standing (the client
       * ended one, or the session limit replaced it): caches of open sessions drop them.
       */
      kind: 'sessions-ended';
      applicationId: number;
      sessionIds: string[];
      fromOtherInstance?: true;
    }
  | {
      /**
       * The link to the other instances broke (`isLinked: false`): changes made meanwhile are
       * not heard, so caches drop everything and keep nothing they read until the link is back
       * (`isLinked: true`), when they drop everything again.
       */
      kind: 'resync';
      isLinked: boolean;
    };

/** A change to the end users or sessions of an application, not to the application itself. */
export const isEndUserChange = (
  change: ApplicationChange,
): change is Extract<
  ApplicationChange,
  { kind: 'end-user-changed' | 'end-users-changed' | 'sessions-ended' }
> =>
  change.kind === 'end-user-changed' ||
  change.kind === 'end-users-changed' ||
  change.kind === 'sessions-ended';

/** A change whose announcement a statement can carry: one end user's. */
export type InlineAnnounceableChange = Extract<ApplicationChange, { kind: 'end-user-changed' }>;

/**
 * A change's announcement to the other instances, for the statement that makes the change to
 * send (`inlineAnnouncementColumns`): PostgreSQL delivers it when, and only if, that
 * statement's transaction commits, so it cannot be lost between the commit and a later NOTIFY,
 * and it costs no round trip or commit of its own (a NOTIFY of its own is a transaction that
 * flushes the WAL). The same statement counts the other instances listening
 * (`count_other_listeners(listenerName)`).
 */
export interface InlineAnnouncement {
  channel: string;
  payload: string;
  listenerName: string;
  /**
   * Called once the statement has answered: with its count of other listeners if it sent the
   * notification, or with null if it did not (it changed nothing, or failed). Resolves when
   * the announcement is confirmed as emitChange's are, at once when it was not sent.
   */
  settle(otherListeners: number | null): Promise<void>;
}

/**
 * Runs synchronously and must be cheap (drop a cache entry). A listener may answer a promise
 * for work that follows (the announcement to other instances), which emitChange waits for.
 */
export type ApplicationChangeListener = (change: ApplicationChange) => void | Promise<void>;

/**
 * The invalidation hook for anything that caches applications (the client API keeps them
 * in memory by API key). Owner verbs emit after their change is committed and await the
 * announcement before answering. One instance per app (AppDependencies).
 */
export interface ApplicationEvents {
  /** Returns a function that removes the listener. */
  onChange(listener: ApplicationChangeListener): () => void;
  /**
   * Tells every listener at once (this instance's caches are current when it returns), and
   * answers a promise that settles when the listeners' follow-up work has: an owner's verb
   * awaits it before answering, so other instances have been told by then. It
   * never rejects.
   */
  emitChange(change: ApplicationChange, log: FastifyBaseLogger): Promise<void>;
  /**
   * An announcement of `change` for the statement that makes it to carry; emit the change
   * with `isAnnounced: true` once that statement has answered. Null when nothing shares
   * changes with other instances, and then the change is emitted as any other.
   */
  announceWithin(change: InlineAnnounceableChange): InlineAnnouncement | null;
  /** Who prepares those announcements (the instances' change sharing); answers its removal. */
  setAnnouncer(announcer: (change: InlineAnnounceableChange) => InlineAnnouncement): () => void;
}

/**
 * A change that one statement makes and announces (`announceWithin`), from the caller's side:
 * pass `announcement` to the statement, then call `made` with the statement's count of other
 * listeners if it made the change, or `notMade` if it did not (or failed). `made` drops this
 * instance's caches and resolves once the other instances have acknowledged, as an owner's
 * change does; without change sharing it only drops this instance's caches.
 */
export function changeMadeWithin(
  events: ApplicationEvents,
  change: InlineAnnounceableChange,
  log: FastifyBaseLogger,
) {
  const announcement = events.announceWithin(change);
  return {
    announcement,
    notMade: () => void announcement?.settle(null),
    made: async (otherListeners: number | null) => {
      await Promise.all([
        events.emitChange(announcement ? { ...change, isAnnounced: true } : change, log),
        announcement?.settle(otherListeners),
      ]);
    },
  };
}

export function createApplicationEvents(): ApplicationEvents {
  const listeners = new Set<ApplicationChangeListener>();
  let announcer: ((change: InlineAnnounceableChange) => InlineAnnouncement) | null = null;
  return {
    announceWithin: (change) => announcer?.(change) ?? null,
    setAnnouncer(next) {
      announcer = next;
      return () => {
        if (announcer === next) announcer = null;
      };
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emitChange(change, log) {
      const followUps: Promise<void>[] = [];
      for (const listener of listeners) {
        try {
          const followUp = listener(change);
          if (followUp) followUps.push(followUp);
        } catch (error) {
          // The owner's change is already committed; a failing listener must not undo the reply.
          log.error({ err: error, change }, 'application change listener failed');
        }
      }
      if (followUps.length === 0) return Promise.resolve();
      return Promise.allSettled(followUps).then(() => undefined);
    },
  };
}
