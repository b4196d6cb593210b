import type { CounterCell, HotPathCounter } from '../../metrics/hot-path-counter.ts';

/** Counts one answer carrying this `code`. */
export type CountClientResponse = (code: string) => void;

/**
 * Client-API answers per route and `code`, counted where each answer is built (the handlers,
 * the error and not-found handlers). `forRoute` is memoised, so a handler takes its counter
 * once at registration and a request pays one lookup by code; without metrics, a no-op.
 */
export function createClientResponseCounter(counter: HotPathCounter | null) {
  const byRoute = new Map<string, CountClientResponse>();
  const noCount: CountClientResponse = () => {};
  return {
    forRoute(route: string): CountClientResponse {
      if (!counter) return noCount;
      let count = byRoute.get(route);
      if (!count) {
        const cells = new Map<string, CounterCell>();
        count = (code) => {
          let cell = cells.get(code);
          if (!cell) {
            cell = counter.cell([route, code]);
            cells.set(code, cell);
          }
          cell.inc();
        };
        byRoute.set(route, count);
      }
      return count;
    },
  };
}
