import type { OwnerEvent } from '@latchkey/contracts';

export type OwnerEventListener = (event: OwnerEvent) => void;

/** Carries a published event to the other instances (share-owner-events.ts installs it). */
export type OwnerEventForwarder = (accountId: string, event: OwnerEvent) => Promise<void>;

/**
 * Carries events to the open consoles of one owner account: each console stream
 * subscribes for its account, verbs and hooks publish. Listeners run synchronously and must be
 * cheap (they queue a write on a socket).
 */
export interface OwnerEventHub {
  /**
   * Sends the event to every open console stream of the account, on this instance and, once
   * share-owner-events.ts has connected the hub, on every other one on the same database.
   * Never rejects: a failure is logged by the forwarder.
   */
  publish(accountId: string, event: OwnerEvent): Promise<void>;
  /** Returns a function that removes the listener. */
  subscribe(accountId: string, listener: OwnerEventListener): () => void;
  /** Tells this instance's listeners only (what another instance's announcement delivers). */
  deliverLocally(accountId: string, event: OwnerEvent): void;
  /** The accounts with at least one open stream here. */
  subscribedAccounts(): string[];
  /** How many listeners the account has here (the per-account stream cap counts these). */
  listenerCount(accountId: string): number;
  /** Called with the number of subscribed accounts whenever it goes from 0 to 1 or 1 to 0. */
  onSubscribersChanged(listener: (accountCount: number) => void): () => void;
  setForwarder(forwarder: OwnerEventForwarder | null): void;
}

export function createOwnerEventHub(): OwnerEventHub {
  const listenersByAccount = new Map<string, Set<OwnerEventListener>>();
  const subscriberWatchers = new Set<(accountCount: number) => void>();
  let forwarder: OwnerEventForwarder | null = null;

  const deliverLocally = (accountId: string, event: OwnerEvent) => {
    const listeners = listenersByAccount.get(accountId);
    if (!listeners) return;
    for (const listener of listeners) listener(event);
  };
  const tellWatchers = () => {
    for (const watcher of subscriberWatchers) watcher(listenersByAccount.size);
  };

  return {
    publish(accountId, event) {
      deliverLocally(accountId, event);
      return forwarder ? forwarder(accountId, event) : Promise.resolve();
    },
    subscribe(accountId, listener) {
      let listeners = listenersByAccount.get(accountId);
      if (!listeners) {
        listeners = new Set();
        listenersByAccount.set(accountId, listeners);
        if (listenersByAccount.size === 1) tellWatchers();
      }
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && listenersByAccount.get(accountId) === listeners) {
          listenersByAccount.delete(accountId);
          if (listenersByAccount.size === 0) tellWatchers();
        }
      };
    },
    deliverLocally,
    subscribedAccounts: () => [...listenersByAccount.keys()],
    listenerCount: (accountId) => listenersByAccount.get(accountId)?.size ?? 0,
    onSubscribersChanged(watcher) {
      subscriberWatchers.add(watcher);
      return () => subscriberWatchers.delete(watcher);
    },
    setForwarder(next) {
      forwarder = next;
    },
  };
}
