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
}

export function createApplicationEvents(): ApplicationEvents {
  const listeners = new Set<ApplicationChangeListener>();
  return {
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
