import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { rowsOf } from '../../db/rows-of.ts';

/**
 * The activity log's partitions (migration 0043), made ahead and dropped past retention. A
 * partition's name carries its range in UTC days: `activity_logs_YYYYMMDD_YYYYMMDD` from the
 * first day to the second (excluded), `activity_logs_before_YYYYMMDD` everything before that
 * day (the rows kept from before the log was partitioned). Rows outside every partition land in
 * `activity_logs_default`, so a partition not made in time costs speed, never an event.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** Days made ahead of the clock: a sweep a week late still finds today's partition made. */
export const ACTIVITY_LOG_DAYS_AHEAD = 7;

/**
 * How many partitions the retention spans. Each read of the log that names no time range
 * (its pages, its searches) plans and opens every partition: at a hundred day partitions the
 * first page cost 17 ms of planning alone. A row goes when its whole partition is past the
 * retention, so it may outlive the retention by one partition: a twelfth of it.
 */
export const PARTITIONS_PER_RETENTION = 12;

/**
 * How long the sweep waits for the locks that make, detach or drop a partition. Detaching
 * locks the whole log for a moment, and while it waits every sign-in queues behind it, so it
 * gives up early and tries again at the next sweep.
 */
export const PARTITION_LOCK_TIMEOUT = '1s';

/** The days each new partition holds under a retention: a twelfth of it, at least one. */
export function activityLogPartitionDays(retentionMs: number): number {
  return Math.max(1, Math.ceil(retentionMs / DAY_MS / PARTITIONS_PER_RETENTION));
}

/** Makes the partitions missing from today to the days ahead; answers how many. */
export async function createActivityLogPartitions(
  db: Database,
  now: Date,
  daysEach: number,
): Promise<number> {
  const through = new Date(now.getTime() + ACTIVITY_LOG_DAYS_AHEAD * DAY_MS);
  return db.transaction(async (tx) => {
    await tx.execute(sql.raw(`set local lock_timeout = '${PARTITION_LOCK_TIMEOUT}'`));
    const [row] = rowsOf<{ made: number }>(
      await tx.execute(
        sql`select create_activity_log_partitions(${now.toISOString()}::timestamptz,
                 ${through.toISOString()}::timestamptz, ${daysEach}::int) as made`,
      ),
    );
    return Number(row?.made ?? 0);
  });
}

interface PartitionRange {
  name: string;
  /** Epoch milliseconds; null for the partition of everything before its end. */
  rangeStart: number | null;
  rangeEnd: number;
  attached: boolean;
}

export interface DroppedPartitions {
  partitions: number;
  rows: number;
  /**
   * Rows older than this are past retention and in no partition still kept whole: the start
   * of the partition the cutoff falls in, or the cutoff itself when it falls in none of them
   * (in the partition of older rows, or the default one).
   */
  keptFrom: Date;
}

/**
 * Drops every partition whose whole range is older than `cutoff`, oldest first, with its rows'
 * counts. Each is detached in a transaction of its own (a moment's lock on the log), then
 * counted and dropped in a second: a process gone between the two leaves a detached table,
 * which the next sweep finishes.
 */
export async function dropExpiredActivityLogPartitions(
  db: Database,
  cutoff: Date,
  shouldStop?: () => boolean,
): Promise<DroppedPartitions> {
  const ranges = rowsOf<{
    name: string;
    range_start: number | string | null;
    range_end: number | string;
    attached: boolean;
  }>(await db.execute(sql`select * from activity_log_partition_ranges()`)).map(
    (row): PartitionRange => ({
      name: row.name,
      rangeStart: row.range_start === null ? null : Number(row.range_start),
      rangeEnd: Number(row.range_end),
      attached: row.attached,
    }),
  );
  const at = cutoff.getTime();
  const straddling = ranges.find(
    (range) =>
      range.attached && range.rangeStart !== null && range.rangeStart <= at && at < range.rangeEnd,
  );
  const dropped: DroppedPartitions = {
    partitions: 0,
    rows: 0,
    keptFrom: straddling ? new Date(straddling.rangeStart!) : cutoff,
  };
  const expired = ranges
    .filter((range) => range.rangeEnd <= at)
    .sort((a, b) => a.rangeEnd - b.rangeEnd);
  for (const range of expired) {
    if (shouldStop?.()) break;
    if (range.attached) {
      await db.transaction(async (tx) => {
        await tx.execute(sql.raw(`set local lock_timeout = '${PARTITION_LOCK_TIMEOUT}'`));
        await tx.execute(
          sql`alter table activity_logs detach partition ${sql.identifier(range.name)}`,
        );
      });
    }
    const [row] = rowsOf<{ rows: number | string }>(
      await db.execute(sql`select drop_detached_activity_log_partition(${range.name}) as rows`),
    );
    dropped.partitions += 1;
    dropped.rows += Number(row?.rows ?? 0);
  }
  return dropped;
}
