import { lookup as dnsLookup } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { WebhookEventPayload, WebhookFormat } from '@latchkey/contracts';
import type { Database } from '../../db/client.ts';
import { rowsOf } from '../../db/rows-of.ts';
import type { Clock } from '../../lib/clock.ts';
import { startOutboxWorker, type OutboxWorker } from '../../lib/outbox-worker.ts';
import { renderWebhookMessage, resolveWebhookFormat } from './render-webhook-message.ts';
import { signStandardWebhook } from './standard-webhook-signature.ts';
import { decryptWebhookSecret } from '../../lib/webhook-secret-crypto.ts';

/**
 * Sends the outbox (webhook_deliveries) on the shared outbox loop (lib/outbox-worker.ts).
 * Each round claims due deliveries in one short statement (`FOR UPDATE SKIP LOCKED`) that
 * also counts the attempt and pushes `next_attempt_at` forward by a lease, then sends outside
 * any transaction, then records the result, but only if that claim is still the current one. So several instances never send
 * the same attempt twice, and a killed instance's claims come due again when their lease
 * ends (receivers deduplicate a resend by its `webhook-id`). Polls every `pollIntervalMs`,
 * and at once when woken (this instance queued deliveries, or a manual retry).
 */
export type WebhookDispatcher = OutboxWorker;

/** What became of one attempt: sent, failed with a retry scheduled, or failed for good. */
export type DeliveryAttemptResult = 'success' | 'retry' | 'failure';

/** The `lookup` of node:net (what the destination guard plugs in to vet resolved addresses). */
export type HostLookup = NonNullable<http.RequestOptions['lookup']>;

export interface WebhookDispatcherOptions {
  db: Database;
  log: FastifyBaseLogger;
  clock: Clock;
  serverSecret: string;
  isProduction: boolean;
  pollIntervalMs: number;
  /** Delay before each retry; a delivery has `retryDelaysMs.length + 1` attempts. */
  retryDelaysMs: number[];
  lookup?: HostLookup;
  /**
   * Why a destination is refused, or null: the destination guard at delivery time. Node
   * skips `lookup` for an IP-literal host, so literals are vetted here before connecting.
   */
  refuseDestination?: (url: URL) => Promise<string | null>;
  /** Sends in flight at once. */
  concurrency?: number;
  /** How long a claim lasts; longer than `timeoutMs`, so a live send never loses its claim. */
  leaseMs?: number;
  timeoutMs?: number;
  /** Told each attempt's result once it is recorded (metrics). */
  onAttemptResult?: (result: DeliveryAttemptResult) => void;
}

export const WEBHOOK_TIMEOUT_MS = 15_000;
const DEFAULT_LEASE_MS = 60_000;
const DEFAULT_CONCURRENCY = 8;
/** Longest Retry-After honoured: an endpoint cannot park a delivery for longer. */
const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;
/** A webhook failing every attempt this long is disabled. */
export const WEBHOOK_FAILING_DISABLE_MS = 5 * 24 * 60 * 60 * 1000;
/** Response bodies are read (so the connection ends cleanly) but never kept past this. */
const MAX_RESPONSE_BYTES = 64 * 1024;
const MAX_ERROR_LENGTH = 300;

export const WEBHOOK_GONE_REASON = 'The endpoint answered 410 Gone';
export const WEBHOOK_FAILING_REASON = 'Every delivery failed for 5 days';
export const WEBHOOK_DISABLED_ERROR = 'Not sent: the webhook is disabled';

interface ClaimedDelivery {
  id: string;
  attempts: number;
  payload: WebhookEventPayload;
  url: string;
  format: WebhookFormat;
  secretEncrypted: string;
  isActive: boolean;
}

type SendOutcome =
  | { kind: 'answered'; status: number; statusText: string; retryAfter: string | null }
  | { kind: 'error'; error: string; isPermanent: boolean };

export function createWebhookDispatcher(options: WebhookDispatcherOptions): WebhookDispatcher {
  const { db, log } = options;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;

  async function claimDue(limit: number): Promise<ClaimedDelivery[]> {
    const result = await db.execute(sql`
      with due as (
        select id from webhook_deliveries
        where status = 'pending' and next_attempt_at <= now()
        order by next_attempt_at
        limit ${limit}
        for update skip locked
      )
      update webhook_deliveries d
      set attempts = d.attempts + 1,
          next_attempt_at = now() + make_interval(secs => ${leaseMs / 1000}),
          claimed_until = now() + make_interval(secs => ${leaseMs / 1000}),
          updated_at = now()
      from due, webhooks w
      where d.id = due.id and w.id = d.webhook_id
      returning d.id, d.attempts, d.payload, w.url, w.format,
                w.secret_encrypted as "secretEncrypted", w.is_active as "isActive"`);
    return rowsOf<ClaimedDelivery>(result);
  }

  async function deliver(delivery: ClaimedDelivery, signal: AbortSignal): Promise<void> {
    if (!delivery.isActive) {
      await finish(delivery, { status: 'failed', lastStatus: null, error: WEBHOOK_DISABLED_ERROR });
      return;
    }
    let secret: string;
    try {
      secret = decryptWebhookSecret(delivery.secretEncrypted, options.serverSecret);
    } catch {
      await finish(delivery, {
        status: 'failed',
        lastStatus: null,
        error: 'Not sent: the signing secret cannot be decrypted',
      });
      return;
    }
    const payload: WebhookEventPayload = {
      type: delivery.payload.type,
      timestamp: delivery.payload.timestamp,
      data: delivery.payload.data,
    };
    const body = renderWebhookMessage(payload, resolveWebhookFormat(delivery.format, delivery.url));
    const timestampSeconds = Math.floor(options.clock.now().getTime() / 1000);
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'Latchkey-Webhooks/1.0',
      'webhook-id': delivery.id,
      'webhook-timestamp': String(timestampSeconds),
      'webhook-signature': signStandardWebhook({ id: delivery.id, timestampSeconds, body, secret }),
    };
    const started = performance.now();
    const outcome = await send(delivery.url, headers, body, signal).catch(
      (error: NodeJS.ErrnoException): SendOutcome => ({
        kind: 'error',
        error: describeError(error),
        isPermanent: false,
      }),
    );
    const durationMs = Math.round(performance.now() - started);
    if (signal.aborted) {
      await release(delivery);
      return;
    }
    await recordOutcome(delivery, outcome, durationMs);
  }

  function send(
    url: string,
    headers: Record<string, string>,
    body: string,
    signal: AbortSignal,
  ): Promise<SendOutcome> {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return Promise.resolve({ kind: 'error', error: 'Invalid URL', isPermanent: true });
    }
    const isHttps = target.protocol === 'https:';
    if (!isHttps && !(target.protocol === 'http:' && !options.isProduction && isLoopback(target))) {
      return Promise.resolve({
        kind: 'error',
        error: 'Refused: only https:// URLs (plain http:// only to loopback outside production)',
        isPermanent: true,
      });
    }
    const refusing = options.refuseDestination?.(target) ?? Promise.resolve(null);
    return refusing.then((reason) =>
      reason !== null
        ? { kind: 'error', error: reason, isPermanent: true }
        : sendTo(target, isHttps, headers, body, signal),
    );
  }

  function sendTo(
    target: URL,
    isHttps: boolean,
    headers: Record<string, string>,
    body: string,
    signal: AbortSignal,
  ): Promise<SendOutcome> {
    return new Promise((resolve) => {
      let isSettled = false;
      const settle = (outcome: SendOutcome) => {
        if (isSettled) return;
        isSettled = true;
        clearTimeout(deadline);
        resolve(outcome);
      };
      // node:http follows no redirects: a 3xx is just a non-2xx answer.
      const request = (isHttps ? https : http).request(target, {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: options.lookup ?? dnsLookup,
        signal,
        agent: false,
      });
      const deadline = setTimeout(() => {
        request.destroy(new Error(`Timed out after ${timeoutMs / 1000} s`));
      }, timeoutMs);
      request.on('response', (response) => {
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > MAX_RESPONSE_BYTES) response.destroy();
        });
        const answered = () =>
          settle({
            kind: 'answered',
            status: response.statusCode ?? 0,
            statusText: response.statusMessage ?? '',
            retryAfter: headerValue(response.headers['retry-after']),
          });
        response.on('end', answered);
        response.on('close', answered);
        response.on('error', answered);
      });
      request.on('error', (error: NodeJS.ErrnoException) => {
        settle({ kind: 'error', error: describeError(error), isPermanent: false });
      });
      request.end(body);
    });
  }

  async function recordOutcome(
    delivery: ClaimedDelivery,
    outcome: SendOutcome,
    durationMs: number,
  ): Promise<void> {
    if (outcome.kind === 'answered' && outcome.status >= 200 && outcome.status < 300) {
      await finish(delivery, {
        status: 'succeeded',
        lastStatus: outcome.status,
        error: null,
        durationMs,
      });
      await db.execute(sql`
        update webhooks set failing_since = null
        where id = (select webhook_id from webhook_deliveries where id = ${delivery.id})
          and failing_since is not null`);
      return;
    }
    const lastStatus = outcome.kind === 'answered' ? outcome.status : null;
    const error =
      outcome.kind === 'answered'
        ? `HTTP ${outcome.status}${outcome.statusText ? ` ${outcome.statusText}` : ''}`
        : outcome.error;
    const isGone = lastStatus === 410;
    const isPermanent = isGone || (outcome.kind === 'error' && outcome.isPermanent);
    // The webhook's run of failures: 410 ends it at once, five days of failures too. Written
    // before the delivery's outcome, so whoever reads a delivery failed by a 410 finds its
    // webhook already disabled (a crash between the two leaves the delivery to be claimed
    // again, and a disabled webhook's deliveries are not sent).
    await db.execute(sql`
      update webhooks
      set failing_since = coalesce(failing_since, now()),
          is_active = case
            when ${isGone} then false
            when coalesce(failing_since, now()) <= now() - make_interval(secs => ${WEBHOOK_FAILING_DISABLE_MS / 1000}) then false
            else is_active end,
          disabled_reason = case
            when ${isGone} then ${WEBHOOK_GONE_REASON}
            when coalesce(failing_since, now()) <= now() - make_interval(secs => ${WEBHOOK_FAILING_DISABLE_MS / 1000}) then ${WEBHOOK_FAILING_REASON}
            else disabled_reason end,
          updated_at = now()
      where id = (select webhook_id from webhook_deliveries where id = ${delivery.id})`);
    const retryDelayMs = isPermanent ? null : nextDelayMs(delivery.attempts, outcome);
    if (retryDelayMs === null) {
      await finish(delivery, { status: 'failed', lastStatus, error, durationMs });
    } else {
      await db.execute(sql`
        update webhook_deliveries
        set next_attempt_at = now() + make_interval(secs => ${retryDelayMs / 1000}),
            last_status = ${lastStatus}, last_error = ${shorten(error)},
            last_duration_ms = ${durationMs}, claimed_until = null, updated_at = now()
        where id = ${delivery.id} and attempts = ${delivery.attempts} and status = 'pending'`);
      options.onAttemptResult?.('retry');
    }
    if (isGone)
      log.warn({ deliveryId: delivery.id }, 'webhook disabled: endpoint answered 410 Gone');
  }

  /** The schedule's delay after this attempt, or a 429's Retry-After; null when none is left. */
  function nextDelayMs(attempts: number, outcome: SendOutcome): number | null {
    const scheduled = options.retryDelaysMs[attempts - 1];
    if (scheduled === undefined) return null;
    if (outcome.kind === 'answered' && outcome.status === 429 && outcome.retryAfter) {
      const asked = parseRetryAfter(outcome.retryAfter, options.clock.now());
      if (asked !== null) return Math.min(asked, MAX_RETRY_AFTER_MS);
    }
    return scheduled;
  }

  async function finish(
    delivery: ClaimedDelivery,
    result: {
      status: 'succeeded' | 'failed';
      lastStatus: number | null;
      error: string | null;
      durationMs?: number;
    },
  ): Promise<void> {
    await db.execute(sql`
      update webhook_deliveries
      set status = ${result.status}, last_status = ${result.lastStatus},
          last_error = ${result.error === null ? null : shorten(result.error)},
          last_duration_ms = ${result.durationMs ?? null}, completed_at = now(),
          claimed_until = null, updated_at = now()
      where id = ${delivery.id} and attempts = ${delivery.attempts} and status = 'pending'`);
    options.onAttemptResult?.(result.status === 'succeeded' ? 'success' : 'failure');
  }

  /** A send aborted by shutdown did not count: due again now, for this or another instance. */
  async function release(delivery: ClaimedDelivery): Promise<void> {
    await db.execute(sql`
      update webhook_deliveries
      set attempts = attempts - 1, next_attempt_at = now(), claimed_until = null,
          updated_at = now()
      where id = ${delivery.id} and attempts = ${delivery.attempts} and status = 'pending'`);
  }

  return startOutboxWorker({
    name: 'webhook',
    log,
    pollIntervalMs: options.pollIntervalMs,
    concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
    claim: claimDue,
    deliver,
    idOf: (delivery) => delivery.id,
  });
}

/** Retry-After as delay-seconds or an HTTP date (RFC 9110, section 10.2.3); null if unreadable. */
export function parseRetryAfter(value: string, now: Date): number | null {
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now.getTime());
}

function isLoopback(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

function headerValue(value: string | string[] | undefined): string | null {
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

/** The error's code and message, never the request (which carries the signature). */
function describeError(error: NodeJS.ErrnoException): string {
  return error.code ? `${error.code}: ${error.message}` : error.message;
}

function shorten(text: string): string {
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH - 1)}…` : text;
}
