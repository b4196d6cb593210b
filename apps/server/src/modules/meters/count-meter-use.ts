import { sql, type SQL } from 'drizzle-orm';
import type { Database, DatabaseConnection } from '../../db/client.ts';
import { namedValuesStatement, type BindValue } from '../../db/named-values-statement.ts';
import type { InlineAnnouncement } from '../../events/application-events.ts';
import { inlineAnnouncementColumns } from '../../events/inline-announcement-columns.ts';
import { rowsOf } from '../../db/rows-of.ts';
import { isUniqueViolation } from '../../lib/database-errors.ts';
import type { EffectiveMeter } from './effective-meters.ts';
import { meterPeriodOf, type MeterPeriod } from './meter-periods.ts';

/** What one increment did to the meter. */
export type MeterUseOutcome =
  | {
      kind: 'counted';
      used: number;
      period: MeterPeriod;
      /** This increment reached the allowance, first in its period: announce it once. */
      isNewlyExhausted: boolean;
      /** Counted by the statement that sent `announcement`; null without one. */
      otherListeners: number | null;
    }
  | {
      kind: 'refused';
      used: number;
      period: MeterPeriod;
      /** The period's first refusal (the allowance not reached before): announce it once. */
      isNewlyExhausted: boolean;
    }
  /** The idempotency key was counted before: `used` is what that increment answered. */
  | { kind: 'replayed'; used: number; period: MeterPeriod }
  /** The idempotency key was counted before for another meter or amount. */
  | { kind: 'key-reused' };

interface CountedRow {
  used: number;
  otherListeners: number | null;
}

/** The idempotency keys' constraint: one increment per user and key. */
const KEY_COUNTED_CONSTRAINT = 'meter_increments_app_user_id_idempotency_key_pk';

/** What the counting statement is run with. */
interface CountValues {
  /** Recorded with the increment, so a retry is answered as the first time; null: none. */
  idempotencyKey: string | null;
  appUserId: string;
  meterName: string;
  /** The period the increment falls in, ISO 8601. */
  periodStart: string;
  amount: number;
  /** ISO 8601. */
  now: string;
  /** An overage-counting meter counts past its allowance; a refusing one does not. */
  countsOverage: boolean;
  allowance: number;
  /** The user's change, announced by the statement if it counts. */
  channel: string | null;
  payload: string | null;
  listenerName: string | null;
}

/**
 * The increment on the user's meter row. The stored period is "this one" when it is not
 * older: an instance whose clock runs a little behind at a boundary counts into the newer
 * period rather than resetting it.
 */
function countedSql(bind: BindValue<keyof CountValues>): SQL {
  const amount = sql`${bind('amount')}::bigint`;
  const allowance = sql`${bind('allowance')}::bigint`;
  const countsOverage = sql`${bind('countsOverage')}::boolean`;
  return sql`
    insert into meter_usage as u (app_user_id, meter_name, period_start, used, exhausted_at, updated_at)
    select ${bind('appUserId')}::uuid, ${bind('meterName')}::text,
           ${bind('periodStart')}::timestamptz, ${amount}, null, ${bind('now')}::timestamptz
    where ${countsOverage} or ${amount} <= ${allowance}
    on conflict (app_user_id, meter_name) do update set
      used = (case when u.period_start >= excluded.period_start then u.used else 0 end) + ${amount},
      period_start = greatest(u.period_start, excluded.period_start),
      exhausted_at = case when u.period_start >= excluded.period_start then u.exhausted_at end,
      updated_at = excluded.updated_at
    where ${countsOverage}
      or (case when u.period_start >= excluded.period_start then u.used else 0 end) + ${amount} <= ${allowance}
    returning u.used::float8 as used, u.period_start`;
}

const announcedSql = (bind: BindValue<keyof CountValues>) =>
  inlineAnnouncementColumns({
    channel: bind('channel'),
    payload: bind('payload'),
    listenerName: bind('listenerName'),
  });

/**
 * An increment without an idempotency key: one statement, prepared once per connection like
 * the keyed one (planned, it cost PostgreSQL some 60 µs a call beside 150-300 µs of running).
 */
const keylessCountStatement = namedValuesStatement<CountValues>(
  'client_api_meter_count',
  (bind) => sql`with counted as (${countedSql(bind)})
    select used, ${announcedSql(bind)} from counted`,
);

/**
 * An increment with an idempotency key (the SDKs send one with every increment): the same
 * statement records the key in `meter_increments`. A key recorded before fails the statement
 * on the table's primary key, and a statement is atomic, so the count it made is undone with
 * it: no transaction, one round trip. A copy racing the first waits for its commit, then fails
 * the same way. The price is a unique-violation ERROR line in PostgreSQL's own log for each
 * retry: retries are rare beside first tries, each of which saves two round trips.
 */
const keyedCountStatement = namedValuesStatement<CountValues>(
  'client_api_meter_count_once',
  (bind) => sql`with counted as (${countedSql(bind)}),
    recorded as (
      insert into meter_increments
        (app_user_id, idempotency_key, meter_name, amount, used_after, period_start, created_at)
      select ${bind('appUserId')}::uuid, ${bind('idempotencyKey')}::text, ${bind('meterName')}::text,
             ${bind('amount')}::bigint, used, period_start, ${bind('now')}::timestamptz
      from counted
    )
    select used, ${announcedSql(bind)} from counted`,
);

export interface MeterUseRequest {
  appUserId: string;
  meter: EffectiveMeter;
  amount: number;
  idempotencyKey: string | null;
  now: Date;
  /**
   * The user's change, announced to the other instances by the statement that counts, in its
   * commit (none when it counts nothing or rolls back).
   */
  announcement: Pick<InlineAnnouncement, 'channel' | 'payload' | 'listenerName'> | null;
}

/**
 * Counts `amount` units of `meter` for a user, race-free and at most once per idempotency key.
 *
 * One `INSERT … ON CONFLICT DO UPDATE` on the user's meter row does the work under the row's
 * lock: it starts the period again at 0 when the stored one is older (the reset, once however
 * many instances count at the boundary), adds the amount only while a refusing meter stays
 * within its allowance (`WHERE used + amount <= allowance`: N concurrent increments can never
 * pass it together). With a key, the same statement records the increment in
 * `meter_increments`; when that key is already there (a retry, or two copies racing) the
 * statement fails, undoing its count, and the stored answer is given. The increment that
 * reaches the allowance, or the first refused, then stamps the period's `exhausted_at`
 * (stampExhausted).
 */
export function createMeterCounter(connection: DatabaseConnection) {
  const { db } = connection;
  return async function countMeterUse(request: MeterUseRequest): Promise<MeterUseOutcome> {
    const { appUserId, meter, amount, idempotencyKey, now, announcement } = request;
    const period = meterPeriodOf(meter.resetEvery, now);
    const values: CountValues = {
      idempotencyKey,
      appUserId,
      meterName: meter.name,
      periodStart: period.start.toISOString(),
      amount,
      now: now.toISOString(),
      countsOverage: meter.overage === 'count',
      allowance: meter.allowance,
      channel: announcement?.channel ?? null,
      payload: announcement?.payload ?? null,
      listenerName: announcement?.listenerName ?? null,
    };

    const stored =
      idempotencyKey === null ? null : { appUserId, idempotencyKey, meter, amount, period };
    const statement = stored ? keyedCountStatement : keylessCountStatement;
    let row: CountedRow | undefined;
    try {
      [row] = (await statement.run(connection, values)).rows as unknown as CountedRow[];
    } catch (error) {
      if (!stored || !isUniqueViolation(error, KEY_COUNTED_CONSTRAINT)) throw error;
      return (await replayOf(db, stored)) ?? { kind: 'key-reused' };
    }
    // Refused now, but perhaps a retry of an increment counted before the meter filled.
    if (!row && stored) {
      const replayed = await replayOf(db, stored);
      if (replayed) return replayed;
    }
    if (!row) {
      const stamped = await stampExhausted(db, { appUserId, meter, period, now });
      return { kind: 'refused', period, ...stamped };
    }
    const used = Number(row.used);
    // Only the increment that reached the allowance can stamp it (the row lock orders them),
    // and only when no refusal of this period stamped it first.
    const hasReached = used - amount < meter.allowance && used >= meter.allowance;
    return {
      kind: 'counted',
      used,
      period,
      isNewlyExhausted:
        hasReached &&
        (await stampExhausted(db, { appUserId, meter, period, now })).isNewlyExhausted,
      otherListeners: row.otherListeners ?? null,
    };
  };
}
export type MeterCounter = ReturnType<typeof createMeterCounter>;

/**
 * The answer a key counted before gave; key-reused when it counted another meter or amount;
 * null when the key was never counted.
 */
async function replayOf(
  db: Database,
  options: {
    appUserId: string;
    idempotencyKey: string;
    meter: EffectiveMeter;
    amount: number;
    period: MeterPeriod;
  },
): Promise<MeterUseOutcome | null> {
  const [stored] = rowsOf<{
    meter_name: string;
    amount: number;
    used_after: number;
    period_start_ms: number;
  }>(
    await db.execute(sql`
      select meter_name, amount::float8 as amount, used_after::float8 as used_after,
        extract(epoch from period_start)::float8 * 1000 as period_start_ms
      from meter_increments
      where app_user_id = ${options.appUserId} and idempotency_key = ${options.idempotencyKey}`),
  );
  if (!stored) return null;
  if (stored.meter_name !== options.meter.name || Number(stored.amount) !== options.amount) {
    return { kind: 'key-reused' };
  }
  const storedStart = Number(stored.period_start_ms);
  // The first answer's period: the current one, unless the meter has reset since.
  const isCurrent = storedStart >= options.period.start.getTime();
  return {
    kind: 'replayed',
    used: Number(stored.used_after),
    period: isCurrent
      ? options.period
      : { start: new Date(storedStart), end: options.period.start },
  };
}

/**
 * Stamps the period's `exhausted_at` unless something stamped it already: the one change a
 * refused increment makes, and the mark of the increment that reached the allowance. A
 * conditional write, so however many instances refuse or reach at once, one of them is told it
 * was first and announces it. Answers the meter's `used` in its current period.
 */
async function stampExhausted(
  db: Database,
  options: { appUserId: string; meter: EffectiveMeter; period: MeterPeriod; now: Date },
): Promise<{ used: number; isNewlyExhausted: boolean }> {
  const { appUserId, meter, period, now } = options;
  const [stamped] = rowsOf<{ used: number }>(
    await db.execute(sql`
      insert into meter_usage as u (app_user_id, meter_name, period_start, used, exhausted_at, updated_at)
      values (${appUserId}, ${meter.name}, ${period.start}, 0, ${now}, ${now})
      on conflict (app_user_id, meter_name) do update set
        used = case when u.period_start >= excluded.period_start then u.used else 0 end,
        period_start = greatest(u.period_start, excluded.period_start),
        exhausted_at = excluded.exhausted_at,
        updated_at = excluded.updated_at
      where u.period_start < excluded.period_start or u.exhausted_at is null
      returning u.used::float8 as used`),
  );
  if (stamped) return { used: Number(stamped.used), isNewlyExhausted: true };
  const [current] = rowsOf<{ used: number }>(
    await db.execute(sql`
      select used::float8 as used from meter_usage
      where app_user_id = ${appUserId} and meter_name = ${meter.name}`),
  );
  return { used: Number(current?.used ?? 0), isNewlyExhausted: false };
}
