/**
 * Coalesces concurrent lookups into few queries, one group (e.g. an application) at a time:
 * at most `maxInFlight` queries per group run at once, and lookups arriving meanwhile wait
 * and go together in the next one. Under load the hot path's many small reads become a
 * few `= any($1)` reads (fewer round trips, socket writes and plans); a lone request is
 * sent at the end of the current event-loop turn (setImmediate), so it hardly waits.
 * Identical keys share one answer.
 */
export function createMicroBatcher<Value>(
  loadMany: (group: number, keys: string[]) => Promise<Map<string, Value>>,
  options: { maxBatchSize?: number; maxInFlight?: number } = {},
) {
  const maxBatchSize = options.maxBatchSize ?? 500;
  const maxInFlight = options.maxInFlight ?? 2;
  type Waiter = { resolve: (value: Value | undefined) => void; reject: (error: unknown) => void };
  interface GroupState {
    waiting: Map<string, Waiter[]>;
    inFlight: number;
    isScheduled: boolean;
  }
  const groups = new Map<number, GroupState>();

  const send = (group: number, state: GroupState) => {
    state.isScheduled = false;
    while (state.inFlight < maxInFlight && state.waiting.size > 0) {
      const batch = new Map<string, Waiter[]>();
      for (const [key, waiters] of state.waiting) {
        batch.set(key, waiters);
        state.waiting.delete(key);
        if (batch.size >= maxBatchSize) break;
      }
      state.inFlight += 1;
      loadMany(group, [...batch.keys()])
        .then(
          (found) => {
            for (const [key, waiters] of batch)
              for (const waiter of waiters) waiter.resolve(found.get(key));
          },
          (error: unknown) => {
            for (const waiters of batch.values())
              for (const waiter of waiters) waiter.reject(error);
          },
        )
        .finally(() => {
          state.inFlight -= 1;
          if (state.waiting.size > 0) send(group, state);
          else if (state.inFlight === 0 && !state.isScheduled) groups.delete(group);
        });
    }
  };

  return {
    load(group: number, key: string): Promise<Value | undefined> {
      let state = groups.get(group);
      if (!state) {
        state = { waiting: new Map(), inFlight: 0, isScheduled: false };
        groups.set(group, state);
      }
      const groupState = state;
      return new Promise((resolve, reject) => {
        const waiters = groupState.waiting.get(key);
        if (waiters) waiters.push({ resolve, reject });
        else groupState.waiting.set(key, [{ resolve, reject }]);
        if (!groupState.isScheduled && groupState.inFlight < maxInFlight) {
          groupState.isScheduled = true;
          setImmediate(send, group, groupState);
        }
      });
    },
  };
}
