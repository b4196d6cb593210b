import { isCleanText } from '@latchkey/contracts';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import { insertActivityWithDeliveries } from '../../outbox/webhook-outbox.ts';
import type { ActivityEvents, ActivityRecord } from '../../events/activity-events.ts';

/**
 * The client API's side effects: activity log rows (with their webhook deliveries, the
 * outbox), the per-application request counter and last-activity stamp, end users'
 * loginAttempts, and session heartbeats. Requests append to memory; a flush writes them.
 *
 * Events are acknowledged only once written, by group commit: recordActivity
 * answers a promise that settles when the transaction holding that row has committed, and
 * login and register await it before answering. A batch holding such rows is flushed on the
 * next tick rather than after the timer; rows arriving while a flush runs form the next
 * batch, so concurrent logins share one write. Such a group commit takes the log rows only:
 * rows and their deliveries are one statement (outbox/webhook-outbox.ts), atomic without BEGIN
 * and COMMIT, which matters because login waits on it and login is bound by CPU. Counters,
 * loginAttempts and heartbeats nobody awaits: they go every `flushIntervalMs` in one
 * transaction (sooner when `batchSize` logs are waiting).
 *
 * Durability: a failed flush puts its work back and retries with backoff. An awaited row
 * not written within `acknowledgeTimeoutMs` has its promise rejected (the client gets a 5xx,
 * not an acknowledgement); the row itself stays queued and is written when the database is
 * back, because the event did happen. The backlog is bounded by `maxPendingLogs`, beyond
 * which the oldest rows are dropped and the drop is logged. A row the database refuses for
 * its content is written again in a safe form, or logged whole at error level: never dropped
 * silently. A graceful shutdown (app.close(), SIGTERM) waits for in-flight requests and
 * flushes. What a crash (SIGKILL, OOM, power loss) can lose: no acknowledged event; only
 * the batched counters, loginAttempts and heartbeats since the last flush (about
 * `flushIntervalMs`), and rows whose requests got no acknowledgement.
 */
export interface ActivityRecorder {
  /**
   * The one place activity is recorded: queues the row, tells the subscribers, and answers
   * a promise that resolves once the row (and its webhook deliveries) is committed, or
   * rejects when it could not be written within `acknowledgeTimeoutMs`.
   */
  recordActivity(record: Omit<ActivityRecord, 'createdAt'> & { createdAt: Date }): Promise<void>;
  /**
   * A row some other statement has already written, with its deliveries (a successful
   * login writes its row with the login stamp): tells the subscribers and, when deliveries
   * were queued, wakes the dispatcher, as a flush would have.
   */
  noteWritten(record: ActivityRecord, queuedDeliveries: number): void;
  /** One client-API request answered for the application (totalApiRequests, lastActivityAt). */
  countApiRequest(applicationId: number, at: Date): void;
  /** A refused login of an existing end user: loginAttempts + 1. */
  countFailedLogin(appUserId: string): void;
  /** A successful login: loginAttempts back to 0 (ordered after earlier increments). */
  resetLoginAttempts(appUserId: string): void;
  /** A heartbeat of a live session: lastHeartbeatAt (never revives an ended session). */
  recordHeartbeat(sessionId: string, at: Date): void;
  /** Writes everything pending now; rejects if the database refuses. */
  flush(): Promise<void>;
  /** Stops the timer and flushes, retrying until `deadlineMs` has passed. */
  close(options?: { deadlineMs?: number }): Promise<void>;
  /** Log rows accepted but not yet written. */
  readonly pendingLogCount: number;
}

export interface ActivityRecorderOptions {
  db: Database;
  log: FastifyBaseLogger;
  events: ActivityEvents;
  flushIntervalMs: number;
  batchSize: number;
  maxPendingLogs?: number;
  /** How long an awaited row may take to be written before its request fails (default 5 s). */
  acknowledgeTimeoutMs?: number;
  /** Told after a commit that queued webhook deliveries (the dispatcher wakes). */
  onDeliveriesQueued?: () => void;
}

/** Someone awaiting a row's commit. */
interface Waiter {
  resolve(): void;
  reject(error: Error): void;
  deadline: number;
}

interface PendingLog {
  record: ActivityRecord;
  waiter: Waiter | null;
}

interface Pending {
  logs: PendingLog[];
  requests: Map<number, { count: number; lastAt: Date }>;
  /** Per user, in order: an optional reset to 0, then `increment` more failures. */
  loginAttempts: Map<string, { isReset: boolean; increment: number }>;
  heartbeats: Map<string, Date>;
}

const emptyPending = (): Pending => ({
  logs: [],
  requests: new Map(),
  loginAttempts: new Map(),
  heartbeats: new Map(),
});

const MAX_BACKOFF_MS = 5_000;
/** Most log rows one INSERT carries; a larger backlog is written in several statements. */
const MAX_LOGS_PER_STATEMENT = 2_000;
/** Permanent failures of the same batch before it is written item by item. */
const ATTEMPTS_BEFORE_SPLITTING = 3;

export function createActivityRecorder(options: ActivityRecorderOptions): ActivityRecorder {
  const { db, log, events, flushIntervalMs, batchSize } = options;
  const maxPendingLogs = options.maxPendingLogs ?? 100_000;
  const acknowledgeTimeoutMs = options.acknowledgeTimeoutMs ?? 5_000;
  let pending = emptyPending();
  let timer: NodeJS.Timeout | null = null;
  let flushing: Promise<void> | null = null;
  let consecutiveFailures = 0;
  let permanentFailures = 0;
  let isClosed = false;

  const hasPending = () =>
    pending.logs.length > 0 ||
    pending.requests.size > 0 ||
    pending.loginAttempts.size > 0 ||
    pending.heartbeats.size > 0;

  let timerDueAt = 0;
  const schedule = (delayMs: number) => {
    if (flushing) return; // its completion schedules what is still pending
    const dueAt = Date.now() + delayMs;
    if (timer) {
      if (dueAt >= timerDueAt) return;
      clearTimeout(timer); // a full batch moves the flush forward
    }
    timerDueAt = dueAt;
    timer = setTimeout(() => {
      timer = null;
      runFlush().catch(() => {
        // Logged in runFlush; the retry is already scheduled.
      });
    }, delayMs);
    timer.unref();
  };

  let waitingCount = 0;
  const backoffMs = () => Math.min(MAX_BACKOFF_MS, flushIntervalMs * 2 ** consecutiveFailures);

  /**
   * After failures, back off (new work does not hurry a retry); else now when someone awaits
   * a row (group commit), the batch is full or the recorder is closing; else the interval.
   */
  const scheduleNormally = () =>
    schedule(
      consecutiveFailures > 0
        ? backoffMs()
        : isClosed || waitingCount > 0 || pending.logs.length >= batchSize
          ? 0
          : flushIntervalMs,
    );

  const settle = (entry: PendingLog, error?: Error) => {
    const { waiter } = entry;
    if (!waiter) return;
    entry.waiter = null;
    waitingCount -= 1;
    if (error) waiter.reject(error);
    else waiter.resolve();
  };

  /** Awaited rows that cannot be written before their deadline fail their requests now. */
  const rejectOverdue = (retryAt: number) => {
    if (waitingCount === 0) return;
    for (const entry of pending.logs) {
      if (entry.waiter && entry.waiter.deadline <= retryAt) {
        settle(entry, new Error('activity could not be written in time'));
      }
    }
  };

  function runFlush(): Promise<void> {
    if (flushing) return flushing;
    if (timer) {
      clearTimeout(timer);
      timer = null;
    }
    const batch = takeBatch();
    flushing = writeBatch(batch)
      .then(
        (queued) => {
          consecutiveFailures = 0;
          permanentFailures = 0;
          for (const entry of batch.logs) settle(entry);
          if (queued > 0) notifyQueued();
        },
        (error: unknown) => {
          consecutiveFailures += 1;
          putBack(batch);
          rejectOverdue(Date.now() + backoffMs());
          log.error(
            { err: error, attempt: consecutiveFailures, pendingLogs: pending.logs.length },
            'activity flush failed; will retry',
          );
          throw error;
        },
      )
      .finally(() => {
        flushing = null;
        if (hasPending()) scheduleNormally();
      });
    return flushing;
  }

  function takeBatch(): Pending {
    if (waitingCount > 0 && !isClosed) {
      // A group commit for awaiting requests takes only the log rows: the counters wait for
      // the timer's flush, so the awaited write is one statement (atomic on its own) rather
      // than a transaction of several. Login waits on it, and login is bound by CPU.
      const logsOnly = { ...emptyPending(), logs: pending.logs.splice(0, MAX_LOGS_PER_STATEMENT) };
      return logsOnly;
    }
    const batch = pending;
    pending = emptyPending();
    if (batch.logs.length > MAX_LOGS_PER_STATEMENT * 5) {
      // A backlog after an outage: write it in slices rather than one giant transaction.
      pending.logs = batch.logs.splice(MAX_LOGS_PER_STATEMENT * 5);
    }
    return batch;
  }

  /** A failed batch goes back in front of what arrived meanwhile, keeping the order. */
  function putBack(batch: Pending): void {
    const newer = pending;
    pending = batch;
    pending.logs.push(...newer.logs);
    for (const [applicationId, counts] of newer.requests) addRequests(applicationId, counts);
    for (const [appUserId, attempts] of newer.loginAttempts) {
      const earlier = pending.loginAttempts.get(appUserId);
      pending.loginAttempts.set(
        appUserId,
        attempts.isReset || !earlier
          ? attempts
          : { isReset: earlier.isReset, increment: earlier.increment + attempts.increment },
      );
    }
    for (const [sessionId, at] of newer.heartbeats) recordHeartbeatAt(sessionId, at);
    dropOverflow();
  }

  function notifyQueued(): void {
    try {
      options.onDeliveriesQueued?.();
    } catch (error) {
      log.error({ err: error }, 'webhook wake-up failed');
    }
  }

  function dropOverflow(): void {
    const overflow = pending.logs.length - maxPendingLogs;
    if (overflow > 0) {
      const dropped = pending.logs.splice(0, overflow);
      for (const entry of dropped) settle(entry, new Error('activity backlog full'));
      log.error({ dropped: overflow }, 'activity backlog full: oldest log rows dropped');
    }
  }

  function addRequests(applicationId: number, counts: { count: number; lastAt: Date }): void {
    const current = pending.requests.get(applicationId);
    if (!current) {
      pending.requests.set(applicationId, { ...counts });
      return;
    }
    current.count += counts.count;
    if (counts.lastAt > current.lastAt) current.lastAt = counts.lastAt;
  }

  function recordHeartbeatAt(sessionId: string, at: Date): void {
    const current = pending.heartbeats.get(sessionId);
    if (!current || at > current) pending.heartbeats.set(sessionId, at);
  }

  /** Answers how many webhook deliveries the batch queued. */
  async function writeBatch(batch: Pending): Promise<number> {
    const hasCounters =
      batch.requests.size > 0 || batch.loginAttempts.size > 0 || batch.heartbeats.size > 0;
    try {
      // One INSERT (rows and their webhook deliveries in one statement) needs no BEGIN/COMMIT.
      if (!hasCounters && batch.logs.length <= MAX_LOGS_PER_STATEMENT) {
        return await writeActivityRows(
          db,
          batch.logs.map((entry) => entry.record),
        );
      }
      return await db.transaction(async (tx) => {
        const queued = await writeActivityRows(
          tx,
          batch.logs.map((entry) => entry.record),
        );
        await writeCounters(tx, batch);
        return queued;
      });
    } catch (error) {
      if (isTransient(error)) throw error;
      permanentFailures += 1;
      if (permanentFailures < ATTEMPTS_BEFORE_SPLITTING) throw error;
      // The same batch keeps failing for a reason retrying cannot fix: write what can be
      // written, one item at a time, and drop (and log) only the items that fail alone.
      return writeItemByItem(batch);
    }
  }

  /**
   * A refused row is an error someone sees, never a silent drop. A row the
   * database refuses alone is written again with every text field made well-formed and
   * marked `metadata.sanitized`; only if that is refused too is it given up, and then the
   * whole record goes to the error log (activity rows hold no secrets) for an operator.
   */
  async function writeItemByItem(batch: Pending): Promise<number> {
    await writeCounters(db, batch);
    let queued = 0;
    for (const entry of batch.logs) {
      const { record } = entry;
      try {
        queued += await writeActivityRows(db, [record]);
        settle(entry);
        continue;
      } catch (error) {
        if (isTransient(error)) throw error;
        log.warn(
          { err: error, event: record.event },
          'activity log row refused; writing it in safe form',
        );
      }
      try {
        queued += await writeActivityRows(db, [safeForm(record)]);
        settle(entry);
      } catch (error) {
        if (isTransient(error)) throw error;
        log.error(
          { err: error, record },
          'activity log row refused even in safe form; not written',
        );
        settle(entry, new Error('activity log row refused'));
      }
    }
    batch.logs = [];
    return queued;
  }

  return {
    recordActivity(input) {
      const record = sanitize(input);
      const written = new Promise<void>((resolve, reject) => {
        pending.logs.push({
          record,
          waiter: { resolve, reject, deadline: Date.now() + acknowledgeTimeoutMs },
        });
      });
      // A caller that does not await (tests, fire-and-forget uses) must not crash the
      // process with an unhandled rejection; one that awaits still sees it.
      written.catch(() => {});
      waitingCount += 1;
      if (pending.logs.length > maxPendingLogs) dropOverflow();
      events.emitRecorded(record, log);
      scheduleNormally();
      return written;
    },
    noteWritten(record, queuedDeliveries) {
      events.emitRecorded(record, log);
      if (queuedDeliveries > 0) notifyQueued();
    },
    countApiRequest(applicationId, at) {
      const current = pending.requests.get(applicationId);
      if (current) {
        current.count += 1;
        if (at > current.lastAt) current.lastAt = at;
      } else {
        pending.requests.set(applicationId, { count: 1, lastAt: at });
      }
      scheduleNormally();
    },
    countFailedLogin(appUserId) {
      const current = pending.loginAttempts.get(appUserId);
      if (current) current.increment += 1;
      else pending.loginAttempts.set(appUserId, { isReset: false, increment: 1 });
      scheduleNormally();
    },
    resetLoginAttempts(appUserId) {
      pending.loginAttempts.set(appUserId, { isReset: true, increment: 0 });
      scheduleNormally();
    },
    recordHeartbeat(sessionId, at) {
      recordHeartbeatAt(sessionId, at);
      scheduleNormally();
    },
    async flush() {
      while (flushing || hasPending()) await runFlush();
    },
    async close({ deadlineMs = 10_000 } = {}) {
      isClosed = true;
      if (timer) {
        clearTimeout(timer);
        timer = null;
      }
      const deadline = Date.now() + deadlineMs;
      while (flushing || hasPending()) {
        try {
          await runFlush();
        } catch {
          if (Date.now() >= deadline) {
            log.error(
              { lostLogs: pending.logs.length },
              'activity could not be written before shutdown; pending rows are lost',
            );
            for (const entry of pending.logs) {
              settle(entry, new Error('activity could not be written before shutdown'));
            }
            pending = emptyPending();
            if (timer) clearTimeout(timer);
            timer = null;
            return;
          }
          await new Promise((resolve) => setTimeout(resolve, Math.min(200, flushIntervalMs)));
        }
      }
    },
    get pendingLogCount() {
      return pending.logs.length;
    },
  };
}

type Executor = Pick<Database, 'execute'>;

/**
 * Writes the rows and their webhook deliveries; answers how many deliveries were queued. Also
 * for a verb that must write its events in its own transaction (a registration with a key:
 * the user, the key and both events land together), then tells the recorder (noteWritten).
 */
export async function writeActivityRows(
  executor: Executor,
  logs: ActivityRecord[],
): Promise<number> {
  let queued = 0;
  for (let start = 0; start < logs.length; start += MAX_LOGS_PER_STATEMENT) {
    const rows = logs.slice(start, start + MAX_LOGS_PER_STATEMENT).map((record, index) => ({
      ord: index,
      application_id: record.applicationId,
      app_user_id: record.appUserId,
      username: record.username,
      event: record.event,
      success: record.success,
      ip_address: record.ipAddress,
      error_message: record.errorMessage,
      metadata: record.metadata,
      created_at: record.createdAt.toISOString(),
    }));
    // Rows of an application deleted meanwhile are skipped (the join) and a deleted end
    // user becomes null (the left join), so a batch never fails on a foreign key.
    queued += await insertActivityWithDeliveries(
      executor,
      sql`
      select r.application_id, u.id, r.username, r.event, r.success, r.ip_address,
             r.error_message, r.metadata, r.created_at
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(
        ord int, application_id int, app_user_id uuid, username text, event text,
        success boolean, ip_address text, error_message text, metadata jsonb,
        created_at timestamptz)
      join applications a on a.id = r.application_id
      left join app_users u on u.id = r.app_user_id
      order by r.ord`,
    );
  }
  return queued;
}

async function writeCounters(executor: Executor, batch: Pending): Promise<void> {
  if (batch.requests.size > 0) {
    const rows = [...batch.requests].map(([id, counts]) => ({
      id,
      requests: counts.count,
      last_at: counts.lastAt.toISOString(),
    }));
    await executor.execute(sql`
      update applications as a
      set total_api_requests = a.total_api_requests + r.requests,
          last_activity_at = greatest(a.last_activity_at, r.last_at)
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        as r(id int, requests bigint, last_at timestamptz)
      where a.id = r.id`);
  }
  if (batch.loginAttempts.size > 0) {
    const rows = [...batch.loginAttempts].map(([id, attempts]) => ({
      id,
      is_reset: attempts.isReset,
      increment: attempts.increment,
    }));
    await executor.execute(sql`
      update app_users as u
      set login_attempts = case when r.is_reset then r.increment
                                else u.login_attempts + r.increment end
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        as r(id uuid, is_reset boolean, increment int)
      -- A reset of a counter already at 0 (most successful logins) writes nothing.
      where u.id = r.id and (r.increment > 0 or u.login_attempts <> 0)`);
  }
  if (batch.heartbeats.size > 0) {
    // Two arrays, not a jsonb document: the heartbeat flush is the busiest write there is.
    const ids = [...batch.heartbeats.keys()];
    const times = [...batch.heartbeats.values()].map((at) => at.toISOString());
    // A floating plan's seat is renewed by its session's heartbeats: a live lease (never one
    // that lapsed, whose seat another login may hold now) runs on from the heartbeat. Only once
    // it has run down by a minute: a program beating every few seconds then rewrites its lease
    // (an indexed column, so a new row version and index entries) once a minute, not each time,
    // and a lease is still never shorter than its length less a minute.
    await executor.execute(sql`
      with beat as (
        update app_user_sessions as s
        set last_heartbeat_at = r.at
        from unnest(${sql.param(ids)}::uuid[], ${sql.param(times)}::timestamptz[]) as r(id, at)
        where s.id = r.id and s.ended_at is null and s.last_heartbeat_at < r.at
        returning s.app_user_id, s.token_hash, r.at
      )
      update seat_leases as l
      set expires_at = beat.at + l.lease_minutes * interval '1 minute'
      from beat
      where l.app_user_id = beat.app_user_id and l.token_hash = beat.token_hash
        and l.borrowed_until is null and l.expires_at > beat.at
        and l.expires_at <= beat.at + (l.lease_minutes - 1) * interval '1 minute'`);
  }
}

/**
 * PostgreSQL refuses U+0000 in text and jsonb, and a lone surrogate breaks the jsonb
 * document a batch is written through: client-sent text must not poison a batch. The edge
 * already refuses both; this is defence in depth for any path that bypasses it.
 */
function sanitize(record: ActivityRecord): ActivityRecord {
  return {
    ...record,
    username: wellFormed(record.username),
    ipAddress: wellFormed(record.ipAddress),
    errorMessage: wellFormed(record.errorMessage),
    metadata: wellFormed(record.metadata),
  };
}

/** A refused row's last chance: every text field well-formed, and marked so. */
function safeForm(record: ActivityRecord): ActivityRecord {
  return {
    ...sanitize(record),
    event: wellFormed(record.event),
    metadata: { ...wellFormed(record.metadata), sanitized: true },
  };
}

/** Lone surrogates and NUL become U+FFFD, in strings and keys at any depth. */
function wellFormed<Value>(value: Value): Value {
  if (typeof value === 'string') {
    return (isCleanText(value) ? value : value.toWellFormed().replaceAll('\0', '\uFFFD')) as Value;
  }
  if (Array.isArray(value)) return value.map(wellFormed) as Value;
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(
      Object.entries(value).map(([key, entry]) => [wellFormed(key), wellFormed(entry)]),
    ) as Value;
  }
  return value;
}

const TRANSIENT_SQLSTATE_CLASSES = new Set(['08', '40', '53', '55', '57', '58', 'XX']);

/** Connection trouble, deadlocks, shutdowns: worth retrying. Bad data is not. */
function isTransient(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) {
      return TRANSIENT_SQLSTATE_CLASSES.has(code.slice(0, 2));
    }
    current = (current as { cause?: unknown }).cause;
  }
  return true;
}
