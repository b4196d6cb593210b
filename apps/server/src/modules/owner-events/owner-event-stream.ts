import { PassThrough } from 'node:stream';
import type { OwnerEvent } from '@latchkey/contracts';
import type { OwnerEventHub } from '../../events/owner-event-hub.ts';

/** A comment line this often keeps proxies from closing an idle stream (and finds dead ones). */
export const HEARTBEAT_INTERVAL_MS = 25_000;
/**
 * What a stream may hold unsent before its reader counts as too slow and is dropped: a console
 * that stops reading must not make the server buffer events for it without limit. It
 * reconnects and refetches when it can read again.
 */
export const MAX_BUFFERED_BYTES = 1024 * 1024;
/**
 * A stream ends after this long and the console opens a new one: a deploy or a new instance
 * behind the load balancer gets its share of consoles, and the session is checked afresh.
 */
export const MAX_STREAM_DURATION_MS = 30 * 60_000;
/** How long the console's EventSource waits before reconnecting by itself (the `retry:` field). */
const RECONNECT_HINT_MS = 3_000;

export interface OwnerEventStreamOptions {
  hub: OwnerEventHub;
  accountId: string;
  heartbeatIntervalMs?: number;
  maxBufferedBytes?: number;
  maxDurationMs?: number;
  /**
   * Asked at each heartbeat: false ends the stream (the owner signed out, or lost the account),
   * so a stream never outlives the session that opened it by more than one interval.
   */
  isStillAuthorized: () => Promise<boolean>;
  onEnd?: (reason: 'closed' | 'slow_reader' | 'unauthorized' | 'expired') => void;
}

/**
 * One console's Server-Sent Events stream: the account's events as `event:`/`data:` messages,
 * a heartbeat comment, and the slow-reader rule. Answers the body to send and a function that
 * ends it (the request's close, the server's shutdown).
 */
export function openOwnerEventStream(options: OwnerEventStreamOptions) {
  const maxBufferedBytes = options.maxBufferedBytes ?? MAX_BUFFERED_BYTES;
  const body = new PassThrough();
  let isEnded = false;

  const end = (reason: 'closed' | 'slow_reader' | 'unauthorized' | 'expired') => {
    if (isEnded) return;
    isEnded = true;
    unsubscribe();
    clearInterval(heartbeat);
    clearTimeout(expiry);
    if (reason === 'slow_reader') body.destroy();
    else body.end();
    options.onEnd?.(reason);
  };

  const write = (text: string) => {
    if (isEnded) return;
    // Bytes waiting in this stream: the socket's own buffer has already pushed back into it.
    if (body.writableLength + body.readableLength > maxBufferedBytes) {
      end('slow_reader');
      return;
    }
    body.write(text);
  };

  const unsubscribe = options.hub.subscribe(options.accountId, (event: OwnerEvent) => {
    write(`event: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`);
  });
  const heartbeat = setInterval(() => {
    options.isStillAuthorized().then(
      (isAuthorized) => (isAuthorized ? write(': heartbeat\n\n') : end('unauthorized')),
      () => write(': heartbeat\n\n'),
    );
  }, options.heartbeatIntervalMs ?? HEARTBEAT_INTERVAL_MS);
  heartbeat.unref();
  const expiry = setTimeout(() => end('expired'), options.maxDurationMs ?? MAX_STREAM_DURATION_MS);
  expiry.unref();
  body.on('close', () => end('closed'));

  // The first bytes tell the browser the stream is open, and how soon to come back.
  write(`retry: ${RECONNECT_HINT_MS}\n: connected\n\n`);
  return { body, end };
}
