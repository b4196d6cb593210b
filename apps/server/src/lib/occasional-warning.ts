import type { Clock } from './clock.ts';

export interface OccasionalWarningOptions {
  /** Shortest time between two warnings. */
  intervalMs: number;
  clock: Clock;
  /** Writes one warning; `suppressed` counts the occurrences since the last one. */
  write: (error: unknown, suppressed: number) => void;
}

/**
 * A warning for a condition that repeats on every request while it lasts (Redis down): it
 * is written at most once per interval, with how often it happened in between, so an outage
 * is seen in the log without one line per client-API call drowning everything else.
 */
export function createOccasionalWarning({ intervalMs, clock, write }: OccasionalWarningOptions) {
  let lastWrittenAt = Number.NEGATIVE_INFINITY;
  let suppressed = 0;
  return (error: unknown) => {
    const now = clock.now().getTime();
    if (now - lastWrittenAt < intervalMs) {
      suppressed += 1;
      return;
    }
    write(error, suppressed);
    lastWrittenAt = now;
    suppressed = 0;
  };
}
