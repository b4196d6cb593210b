import { useSyncExternalStore } from 'react';
import type { OwnerEvent } from '@latchkey/contracts';

export type OwnerEventListener = (event: OwnerEvent) => void;

const listeners = new Set<OwnerEventListener>();

/**
 * Subscribes to the live stream's events, whichever component opened it. Returns a function
 * that removes the listener. Listeners must not throw.
 */
export function onOwnerEvent(listener: OwnerEventListener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** The stream hands each event it receives to every listener. */
export function dispatchOwnerEvent(event: OwnerEvent): void {
  for (const listener of listeners) listener(event);
}

let isLive = false;
const liveWatchers = new Set<() => void>();

/** The stream (owner-event-stream.ts) says whether it is open. */
export function setOwnerEventStreamLive(next: boolean): void {
  if (next === isLive) return;
  isLive = next;
  for (const watcher of liveWatchers) watcher();
}

export function useIsOwnerEventStreamLive(): boolean {
  return useSyncExternalStore(
    (watcher) => {
      liveWatchers.add(watcher);
      return () => liveWatchers.delete(watcher);
    },
    () => isLive,
    () => false,
  );
}

/**
 * While the stream is open, pushed events refresh what they name and a slow re-read only
 * catches what no event names (a session timing out unseen); while it is down, the spec's
 * polling comes back, so nothing stays stale for long.
 */
export const LIVE_SAFETY_REFETCH_MS = 60_000;

/** A query's refetchInterval: its polling period while the stream is down. */
export function useLiveAwarePolling(pollingMs: number): number {
  return useIsOwnerEventStreamLive() ? Math.max(pollingMs, LIVE_SAFETY_REFETCH_MS) : pollingMs;
}
