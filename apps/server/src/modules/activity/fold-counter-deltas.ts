import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, DatabaseConnection } from '../../db/client.ts';
import { rowsOf } from '../../db/rows-of.ts';
import { startPeriodicTask } from '../../lib/periodic-task.ts';

interface FoldRow {
  folded: number;
  /** The addresses the fold took to zero, as JSON for json_to_recordset. */
  zeroed_addresses: unknown[] | null;
  zeroed_event_addresses: unknown[] | null;
}

/**
 * Adds the queued counter deltas (schema/activity-counter-deltas.ts) to the counters, the day
 * counts the retention sweep subtracts among them, and the usernames and addresses of the rows
 * they count to the log's search terms (schema/activity-log-terms.ts: a new term, or a newer
 * day for a known one). The statement that deletes the deltas is the one that adds them
 * (atomic without BEGIN and COMMIT, one round trip for the common case), so a delta is counted
 * exactly once whatever fails, and two folds at once (two instances, or a read and the timer)
 * take disjoint deltas. Each counter gets one upsert of its summed deltas, in key order, so
 * two folds lock the rows they share in the same order and cannot deadlock. Deltas of an
 * application deleted meanwhile are dropped (its counters went with it).
 *
 * An address whose count the fold takes to zero is deleted (the "Unique IPs" card counts the
 * rows) by a second statement, which re-checks the count under the row's lock in case another
 * fold has added to it since.
 *
 * Answers how many delta rows were folded.
 */
export async function foldCounterDeltas(db: Database): Promise<number> {
  const result = await db.execute(sql`
      with taken as (
        delete from activity_counter_deltas returning *
      ), live as (
        select t.* from taken t
        where exists (select 1 from applications a where a.id = t.application_id)
      ), logins as (
        insert into activity_counts as c (application_id, login_attempts, login_successes)
        select application_id, sum(login_attempts), sum(login_successes)
        from live
        where event is not null
        group by application_id
        having sum(login_attempts) <> 0 or sum(login_successes) <> 0
        order by application_id
        on conflict (application_id) do update
          set login_attempts = c.login_attempts + excluded.login_attempts,
              login_successes = c.login_successes + excluded.login_successes
        returning 1
      ), events as (
        insert into activity_event_counts as c (application_id, event, row_count, success_count)
        select application_id, event, sum(row_count), sum(success_count)
        from live
        where event is not null
        group by application_id, event
        having sum(row_count) <> 0 or sum(success_count) <> 0
        order by application_id, event
        on conflict (application_id, event) do update
          set row_count = c.row_count + excluded.row_count,
              success_count = c.success_count + excluded.success_count
        returning 1
      ), addresses as (
        insert into activity_address_counts as c (application_id, ip_address, row_count)
        select application_id, ip_address, sum(row_count)
        from live
        where event is not null and ip_address is not null
        group by application_id, ip_address
        having sum(row_count) <> 0
        order by application_id, ip_address
        on conflict (application_id, ip_address) do update
          set row_count = c.row_count + excluded.row_count
        returning c.application_id, c.ip_address, c.row_count
      ), event_addresses as (
        insert into activity_event_address_counts as c (application_id, event, ip_address, row_count)
        select application_id, event, ip_address, sum(row_count)
        from live
        where event is not null and ip_address is not null
        group by application_id, event, ip_address
        having sum(row_count) <> 0
        order by application_id, event, ip_address
        on conflict (application_id, event, ip_address) do update
          set row_count = c.row_count + excluded.row_count
        returning c.application_id, c.event, c.ip_address, c.row_count
      ), hours as (
        insert into activity_hourly_counts as c (application_id, hour, event, row_count)
        select application_id, hour, event, sum(row_count)
        from live
        where event is not null and hour <> '-infinity'
        group by application_id, hour, event
        having sum(row_count) <> 0
        order by application_id, hour, event
        on conflict (application_id, hour, event) do update
          set row_count = c.row_count + excluded.row_count
        returning 1
      ), days as (
        insert into activity_day_counts as c
          (application_id, day, event, ip_address, row_count, success_count, login_attempts,
           login_successes)
        select application_id, date_trunc('day', hour, 'UTC'), event, ip_address, sum(row_count),
               sum(success_count), sum(login_attempts), sum(login_successes)
        from live
        where event is not null and hour <> '-infinity'
        group by 1, 2, 3, 4
        having sum(row_count) <> 0 or sum(success_count) <> 0 or sum(login_attempts) <> 0
            or sum(login_successes) <> 0
        order by 1, 2, 3, 4
        on conflict (application_id, day, event, ip_address) do update
          set row_count = c.row_count + excluded.row_count,
              success_count = c.success_count + excluded.success_count,
              login_attempts = c.login_attempts + excluded.login_attempts,
              login_successes = c.login_successes + excluded.login_successes
        returning 1
      ), terms as (
        insert into activity_log_terms as t (application_id, field, value, last_seen_day)
        select application_id, field, value, date_trunc('day', max(hour), 'UTC')
        from (
          select application_id, 'username' as field, username as value, hour
          from live where event is not null and row_count > 0 and username is not null
          union all
          select application_id, 'ip_address', ip_address, hour
          from live where event is not null and row_count > 0 and ip_address is not null
        ) seen
        group by application_id, field, value
        order by application_id, field, value
        on conflict (application_id, field, value) do update
          set last_seen_day = excluded.last_seen_day
          where t.last_seen_day < excluded.last_seen_day
        returning 1
      ), starts as (
        insert into session_start_hourly_counts as c (application_id, hour, session_count)
        select application_id, hour, sum(row_count)
        from live
        where event is null
        group by application_id, hour
        order by application_id, hour
        on conflict (application_id, hour) do update
          set session_count = c.session_count + excluded.session_count
        returning 1
      )
      select
        (select count(*) from taken)::int as folded,
        (select json_agg(json_build_object('a', application_id, 'ip', ip_address))
           from addresses where row_count <= 0) as zeroed_addresses,
        (select json_agg(json_build_object('a', application_id, 'e', event, 'ip', ip_address))
           from event_addresses where row_count <= 0) as zeroed_event_addresses`);
  const [row] = rowsOf<FoldRow>(result);
  if (row?.zeroed_addresses) {
    await db.execute(sql`
        delete from activity_address_counts c
        using json_to_recordset(${JSON.stringify(row.zeroed_addresses)}::json)
          as z(a integer, ip text)
        where c.application_id = z.a and c.ip_address = z.ip and c.row_count <= 0`);
  }
  if (row?.zeroed_event_addresses) {
    await db.execute(sql`
        delete from activity_event_address_counts c
        using json_to_recordset(${JSON.stringify(row.zeroed_event_addresses)}::json) as z(a integer, e text, ip text)
        where c.application_id = z.a and c.event = z.e and c.ip_address = z.ip
          and c.row_count <= 0`);
  }
  return row?.folded ?? 0;
}

export interface CounterFolder {
  /** Stops the schedule, then folds once more. */
  stop(): Promise<void>;
}

/** PGlite vacuums nothing by itself: the folder vacuums the queue after this many folds. */
const PGLITE_VACUUM_EVERY_FOLDS = 60;

/**
 * Folds every `intervalMs`, so the counters lag the rows by about that much when nothing
 * reads them (a read folds first). A failed fold loses nothing: its deltas stay queued for
 * the next one.
 *
 * PostgreSQL's autovacuum keeps the queue's table small (migration 0035 sets its threshold).
 * PGlite runs no autovacuum, and a queue that is only ever deleted from grows by every row it
 * ever held (82 bytes a row, measured): there the folder vacuums it about once a minute, a
 * millisecond's work on a table a minute's deltas deep.
 */
export function startCounterFolder({
  database,
  log,
  intervalMs,
}: {
  database: Pick<DatabaseConnection, 'db' | 'kind'>;
  log: FastifyBaseLogger;
  /** COUNTER_FOLD_INTERVAL_MS: a second by default. */
  intervalMs: number;
}): CounterFolder {
  let foldsSinceVacuum = 0;
  const task = startPeriodicTask({
    name: 'counter fold',
    log,
    intervalMs,
    startDelayMs: intervalMs,
    run: async () => {
      const folded = await foldCounterDeltas(database.db);
      if (database.kind === 'pglite' && ++foldsSinceVacuum >= PGLITE_VACUUM_EVERY_FOLDS) {
        foldsSinceVacuum = 0;
        await database.db.execute(sql`vacuum activity_counter_deltas`);
      }
      return folded;
    },
  });
  return {
    // The last fold starts after the schedule has stopped and any fold in progress has
    // ended: joining a fold in progress would miss the deltas committed after it began.
    stop: async () => {
      await task.stop();
      await foldCounterDeltas(database.db).catch((error: unknown) =>
        log.error({ err: error }, 'last counter fold failed'),
      );
    },
  };
}
