import type { Client, Notification } from 'pg';

export interface NotificationHandlers {
  /** A NOTIFY payload on the channel, from any instance (this one included). */
  onPayload(payload: string): void;
  /**
   * The listening connection was lost: notifications sent from now until `onResumed` are gone,
   * so whatever they would have invalidated must be treated as stale, and nothing read
   * meanwhile may be trusted for longer than the read itself.
   */
  onInterrupted(): void;
  /**
   * Listening again after an interruption, once the new LISTEN is in place: what was read
   * during the gap may be stale and must be dropped.
   */
  onResumed(): void;
}

const FIRST_RETRY_MS = 250;
const MAX_RETRY_MS = 5_000;
const CHANNEL_PATTERN = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * LISTENs on `channel` over a PostgreSQL connection of its own (a pooled one would be
 * handed to other queries, and LISTEN is per session), reconnecting with backoff for as long
 * as it runs. Answers once the first LISTEN is in place, so a caller that starts serving
 * afterwards never misses a change made after its start.
 */
export async function listenForNotifications(options: {
  connect: () => Client;
  channel: string;
  handlers: NotificationHandlers;
  onConnectionError: (error: Error) => void;
}): Promise<() => Promise<void>> {
  const { channel, handlers } = options;
  if (!CHANNEL_PATTERN.test(channel)) throw new Error(`invalid channel name: ${channel}`);
  let client: Client | null = null;
  let isStopped = false;
  let retryMs = FIRST_RETRY_MS;
  let retryTimer: NodeJS.Timeout | null = null;

  const onNotification = (message: Notification) => {
    if (message.channel === channel && message.payload !== undefined) {
      handlers.onPayload(message.payload);
    }
  };

  async function connectAndListen(): Promise<void> {
    const next = options.connect();
    // Until LISTEN is in place, failures reject the promise below; the listener only keeps
    // an 'error' event (which pg may also emit) from becoming an uncaught exception.
    const ignoreUntilListening = () => undefined;
    next.on('error', ignoreUntilListening);
    // Before LISTEN: a notification can arrive in the same packet as LISTEN's answer.
    next.on('notification', onNotification);
    try {
      await next.connect();
      await next.query(`listen ${channel}`);
    } catch (error) {
      next.removeListener('notification', onNotification);
      void next.end().catch(() => undefined);
      throw error;
    }
    if (isStopped) {
      await next.end().catch(() => undefined);
      return;
    }
    let isLost = false;
    const lose = (error?: Error) => {
      if (isLost) return;
      isLost = true;
      if (error) options.onConnectionError(error);
      next.removeListener('notification', onNotification);
      void next.end().catch(() => undefined);
      if (client === next) client = null;
      if (isStopped) return;
      handlers.onInterrupted();
      scheduleReconnect();
    };
    next.removeListener('error', ignoreUntilListening);
    next.on('error', lose);
    next.on('end', () => lose());
    client = next;
    retryMs = FIRST_RETRY_MS;
  }

  function scheduleReconnect(): void {
    if (isStopped || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      connectAndListen().then(
        () => {
          if (!isStopped) handlers.onResumed();
        },
        (error: unknown) => {
          options.onConnectionError(error instanceof Error ? error : new Error(String(error)));
          retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
          scheduleReconnect();
        },
      );
    }, retryMs);
    retryTimer.unref();
  }

  await connectAndListen();

  return async () => {
    isStopped = true;
    if (retryTimer) clearTimeout(retryTimer);
    const current = client;
    client = null;
    await current?.end().catch(() => undefined);
  };
}
