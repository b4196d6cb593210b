import type { ActivityLog } from '@latchkey/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseConnection } from '../../db/client.ts';
import type { OwnerEventHub } from '../../events/owner-event-hub.ts';

/** How often an instance with open streams looks for new activity and changed numbers. */
export const OWNER_EVENT_FEED_INTERVAL_MS = 1_000;
/** New log rows read per look; a burst beyond it is read on the following looks. */
const ROWS_PER_LOOK = 5_000;
/**
 * Activity events per account per look: a console cannot show a thousand rows a second, and
 * the `stats` event that goes with them makes it refetch its pages anyway.
 */
const ACTIVITY_EVENTS_PER_ACCOUNT_PER_LOOK = 100;
/**
 * An id below the newest one seen may still appear: its transaction took its id earlier and
 * committed later. Such gaps are looked at again for this long, then given up (a rolled-back
 * insert leaves a gap for ever).
 */
const GAP_WINDOW_MS = 15_000;
/** Gap ids remembered at most; a larger gap (one huge transaction in flight) is not tracked. */
const MAX_TRACKED_GAP_IDS = 5_000;

interface TailRow {
  id: string | number;
  owner_account_id: string | null;
  event: string | null;
  success: boolean | null;
  application_id: number | null;
  application_name: string | null;
  app_username: string | null;
  username: string | null;
  ip_address: string | null;
  error_message: string | null;
  metadata: Record<string, unknown> | null;
  created_at: Date | string | null;
}

interface ApplicationNumbersRow {
  id: number;
  owner_account_id: string;
  numbers: string;
}

export interface OwnerEventFeed {
  /**
   * Answers once the feed knows where the log ends, so a stream that waits for it before its
   * first byte carries every row committed after the console learns it is open (the console
   * rereads its lists then).
   */
  isReady(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Feeds the consoles' streams from the database itself, on each instance that has
 * open streams and only while it has them: new activity-log rows as `activity` events, and a
 * `stats` event for each application whose numbers moved (new rows, requests counted).
 *
 * Why read the log rather than be told: every writer of the log (the recorder's batches,
 * login's one statement, register's transaction, bulk actions) would otherwise have to NOTIFY,
 * and a NOTIFY in the client API's transactions takes PostgreSQL's notification-queue lock at
 * every commit, serialising the hot path for consoles that may not be open. Reading costs one
 * indexed statement per second per instance with consoles open, whatever their number, and
 * reaches consoles on every instance without any message between them.
 */
export function startOwnerEventFeed(options: {
  database: DatabaseConnection;
  hub: OwnerEventHub;
  log: FastifyBaseLogger;
  intervalMs?: number;
}): OwnerEventFeed {
  const { database, hub, log } = options;
  const intervalMs = options.intervalMs ?? OWNER_EVENT_FEED_INTERVAL_MS;
  let cursor: number | null = null;
  const gaps = new Map<number, number>();
  const numbersByApplication = new Map<number, string>();
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let isStopped = false;

  let startingCursor: Promise<void> | null = null;
  /** The log's end when the first stream opened: rows after it are the streams' to carry. */
  const startCursor = () => {
    startingCursor ??= database
      .query({ text: 'select coalesce(max(id), 0)::bigint as id from activity_logs' })
      .then(({ rows }) => {
        cursor = Number((rows[0] as { id: string | number }).id);
      })
      .finally(() => {
        startingCursor = null;
      });
    return startingCursor;
  };

  const look = async () => {
    const accounts = hub.subscribedAccounts();
    if (accounts.length === 0) return;
    const changedApplications = new Map<number, string>();
    if (cursor === null) await startCursor();
    else await readNewActivity(accounts, changedApplications);
    await readApplicationNumbers(accounts, changedApplications);
    for (const [applicationId, accountId] of changedApplications) {
      hub.deliverLocally(accountId, { type: 'stats', data: { applicationId } });
    }
  };

  const readNewActivity = async (accounts: string[], changed: Map<number, string>) => {
    const now = Date.now();
    for (const [id, seenAt] of gaps) if (now - seenAt > GAP_WINDOW_MS) gaps.delete(id);
    const { rows } = await database.query({
      text: `with fresh as (
               select id, created_at, application_id from activity_logs
               where id > $1 or id = any($2::bigint[])
               order by id limit ${ROWS_PER_LOOK}
             )
             select f.id, a.owner_account_id, l.event, l.success, l.application_id,
                    a.name as application_name, u.username as app_username, l.username,
                    l.ip_address, l.error_message, l.metadata, l.created_at
             from fresh f
             left join applications a
               on a.id = f.application_id and a.owner_account_id = any($3::uuid[])
             left join activity_logs l
               on l.id = f.id and l.created_at = f.created_at and a.id is not null
             left join app_users u on u.id = l.app_user_id
             order by f.id`,
      values: [cursor, [...gaps.keys()], accounts],
    });
    const sentPerAccount = new Map<string, number>();
    let expected = cursor! + 1;
    for (const row of rows as unknown as TailRow[]) {
      const id = Number(row.id);
      if (gaps.delete(id) === false && id >= expected) {
        // Ids skipped between the last seen and this one may belong to transactions in flight.
        if (id - expected <= MAX_TRACKED_GAP_IDS - gaps.size) {
          for (let missing = expected; missing < id; missing += 1) gaps.set(missing, now);
        }
        expected = id + 1;
        cursor = id;
      }
      if (row.owner_account_id === null || row.event === null) continue;
      changed.set(row.application_id!, row.owner_account_id);
      const sent = sentPerAccount.get(row.owner_account_id) ?? 0;
      if (sent >= ACTIVITY_EVENTS_PER_ACCOUNT_PER_LOOK) continue;
      sentPerAccount.set(row.owner_account_id, sent + 1);
      hub.deliverLocally(row.owner_account_id, { type: 'activity', data: toActivityLog(row) });
    }
  };

  /**
   * The counters the recorder batches (requests, last activity) moved: sessions started or
   * ended, heartbeats, logins. One indexed read of the subscribed owners' applications.
   */
  const readApplicationNumbers = async (accounts: string[], changed: Map<number, string>) => {
    const { rows } = await database.query({
      text: `select id, owner_account_id,
                    total_api_requests::text || '/' || coalesce(last_activity_at::text, '') as numbers
             from applications where owner_account_id = any($1::uuid[])`,
      values: [accounts],
    });
    for (const row of rows as unknown as ApplicationNumbersRow[]) {
      const before = numbersByApplication.get(row.id);
      numbersByApplication.set(row.id, row.numbers);
      if (before !== undefined && before !== row.numbers) changed.set(row.id, row.owner_account_id);
    }
  };

  const schedule = () => {
    if (isStopped || timer !== null || hub.subscribedAccounts().length === 0) return;
    timer = setTimeout(() => {
      timer = null;
      running = look()
        .catch((error: unknown) => log.warn({ err: error }, 'the owner event feed could not look'))
        .finally(() => {
          running = null;
          schedule();
        });
    }, intervalMs);
    timer.unref();
  };

  const stopWatching = hub.onSubscribersChanged((accountCount) => {
    if (accountCount === 0) {
      // Nobody watches here: the next watcher starts from the log's end, not from a backlog.
      cursor = null;
      gaps.clear();
      numbersByApplication.clear();
      return;
    }
    if (running === null) schedule();
  });

  return {
    async isReady() {
      if (cursor === null) await startCursor();
    },
    async stop() {
      isStopped = true;
      stopWatching();
      if (timer !== null) clearTimeout(timer);
      await running;
    },
  };
}

function toActivityLog(row: TailRow): ActivityLog {
  return {
    id: Number(row.id),
    event: row.event as ActivityLog['event'],
    success: row.success!,
    applicationId: row.application_id!,
    application: { name: row.application_name! },
    appUser: row.app_username === null ? null : { username: row.app_username },
    username: row.username,
    ipAddress: row.ip_address,
    errorMessage: row.error_message,
    metadata: row.metadata ?? {},
    createdAt: new Date(row.created_at!).toISOString(),
  };
}
