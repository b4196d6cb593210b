import type { OwnerEvent } from '@latchkey/contracts';

export type OwnerEventListener = (event: OwnerEvent) => void;

/**
 * Carries events to the consoles of one owner account (issue 26): the event stream subscribes
 * per account, verbs publish. Listeners run synchronously and must be cheap (queue a write).
 */
export interface OwnerEventHub {
  /**
   * Sends the event to every open console stream of the account, on this instance and on every
   * other one on the same database. Never rejects; a failure is logged.
   */
  publish(accountId: string, event: OwnerEvent): Promise<void>;
  /** Returns a function that removes the listener. */
  subscribe(accountId: string, listener: OwnerEventListener): () => void;
  /** Tells this instance's listeners only (what another instance's announcement delivers). */
  deliverLocally(accountId: string, event: OwnerEvent): void;
  /** The accounts with at least one listener here. */
  subscribedAccounts(): Iterable<string>;
}

export function createOwnerEventHub(): OwnerEventHub {
  const listenersByAccount = new Map<string, Set<OwnerEventListener>>();
  const deliverLocally = (accountId: string, event: OwnerEvent) => {
    const listeners = listenersByAccount.get(accountId);
    if (!listeners) return;
    for (const listener of listeners) listener(event);
  };
  return {
    publish(accountId, event) {
      deliverLocally(accountId, event);
      return Promise.resolve();
    },
    subscribe(accountId, listener) {
      let listeners = listenersByAccount.get(accountId);
      if (!listeners) {
        listeners = new Set();
        listenersByAccount.set(accountId, listeners);
      }
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) listenersByAccount.delete(accountId);
      };
    },
    deliverLocally,
    subscribedAccounts: () => listenersByAccount.keys(),
  };
}
