import type { FastifyBaseLogger } from 'fastify';

/**
 * The loop every outbox (webhook deliveries, mail) runs: claim what is due, deliver each
 * claimed item with at most `concurrency` in flight, and claim again when a delivery
 * finishes, when woken, or every `pollIntervalMs`. Claiming and recording are the outbox's own
 * (row locks, leases, retries); this only schedules them, so both outboxes behave alike.
 */
export interface OutboxWorker {
  /** Look for due items now (this instance just queued some, or an owner asked for a retry). */
  wake(): void;
  /** Stops polling and aborts deliveries in flight; resolves once each has handed back. */
  stop(): Promise<void>;
}

export interface OutboxWorkerOptions<Item> {
  /** What the log calls this outbox ("webhook", "mail"). */
  name: string;
  log: FastifyBaseLogger;
  pollIntervalMs: number;
  concurrency: number;
  /** Claims up to `limit` due items (a short statement of its own; `FOR UPDATE SKIP LOCKED`). */
  claim(limit: number): Promise<Item[]>;
  /**
   * Delivers one claimed item and records its outcome. `signal` aborts when the worker stops:
   * the delivery then hands its item back (due again) instead of recording a failure.
   */
  deliver(item: Item, signal: AbortSignal): Promise<void>;
  /** The item's id, for the log line of a delivery that failed to record. */
  idOf(item: Item): string;
}

export function startOutboxWorker<Item>(options: OutboxWorkerOptions<Item>): OutboxWorker {
  const { log, name, concurrency } = options;
  const inFlight = new Set<AbortController>();
  const deliveries = new Set<Promise<void>>();
  let isStopped = false;
  let timer: NodeJS.Timeout | null = null;
  let claiming: Promise<void> | null = null;
  let isWakeRequested = false;

  const schedulePoll = () => {
    if (isStopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      run();
    }, options.pollIntervalMs);
    timer.unref();
  };

  /** One claim at a time per instance; a wake during a claim claims again right after. */
  function run(): void {
    if (isStopped) return;
    if (claiming) {
      isWakeRequested = true;
      return;
    }
    isWakeRequested = false;
    claiming = claimAndDeliver()
      .catch((error: unknown) => {
        log.error({ err: error }, `${name} claim failed; will poll again`);
        return false;
      })
      .then((isMoreDue) => {
        claiming = null;
        if (isStopped) return;
        if (isWakeRequested || isMoreDue) run();
        else schedulePoll();
      });
  }

  /** Answers whether more may be due (the claim was full). */
  async function claimAndDeliver(): Promise<boolean> {
    const capacity = concurrency - inFlight.size;
    if (capacity <= 0) return false; // a finishing delivery runs the next claim
    const claimed = await options.claim(capacity);
    for (const item of claimed) {
      const controller = new AbortController();
      inFlight.add(controller);
      const done = options
        .deliver(item, controller.signal)
        .catch((error: unknown) => {
          log.error({ err: error, id: options.idOf(item) }, `${name} delivery failed to record`);
        })
        .finally(() => {
          inFlight.delete(controller);
          deliveries.delete(done);
          if (!isStopped) run();
        });
      deliveries.add(done);
    }
    return claimed.length === capacity;
  }

  // The first look is immediate: items left by a restart resume at once.
  setImmediate(run);

  return {
    wake: run,
    async stop() {
      isStopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      for (const controller of inFlight) controller.abort();
      await claiming;
      await Promise.allSettled([...deliveries]);
    },
  };
}
