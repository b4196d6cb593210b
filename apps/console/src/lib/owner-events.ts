import type { OwnerEvent } from '@latchkey/contracts';

export type OwnerEventListener = (event: OwnerEvent) => void;

const listeners = new Set<OwnerEventListener>();

/**
 * Subscribes to the live stream's events (issue 26), whichever component opened it. Returns a
 * function that removes the listener. Listeners must not throw.
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
