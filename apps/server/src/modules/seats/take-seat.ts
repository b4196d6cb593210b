import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { rowsOf } from '../../db/rows-of.ts';

export type SeatOutcome =
  | { kind: 'taken'; leaseId: string; expiresAt: Date }
  | { kind: 'full'; nextFreeAt: Date }
  | { kind: 'gone' };

/** The row the `take_seat` database function answers, alone or inside login's statement. */
export interface TakeSeatRow {
  seat_outcome: 'taken' | 'full' | 'gone';
  seat_lease_id: string | null;
  seat_until: Date | string | null;
}

/** What a `take_seat` row says, as an outcome. */
export function seatOutcomeOf(row: TakeSeatRow): SeatOutcome {
  if (row.seat_outcome === 'gone') return { kind: 'gone' };
  const until = new Date(row.seat_until!);
  if (row.seat_outcome === 'full') return { kind: 'full', nextFreeAt: until };
  return { kind: 'taken', leaseId: row.seat_lease_id!, expiresAt: until };
}

/**
 * Leases one of the holder's `seats` to a login, for `leaseMinutes`. The database function
 * `take_seat` locks the holder's row first and counts the live leases after, so every login of
 * one holder counts in turn: N+1 logins at once, on one instance or several, take N seats and
 * the last is told when the first lease lapses. A client-API login calls the function inside
 * its closing statement (login-statements.ts); this is the call on its own, for the portal's
 * offline activation. A lapsed lease holds nothing; it is not deleted here.
 */
export async function takeSeat(
  db: Database,
  input: {
    applicationId: number;
    appUserId: string;
    seats: number;
    leaseMinutes: number;
    tokenHash: string;
    hwid: string | null;
    now: Date;
  },
): Promise<SeatOutcome> {
  const [row] = rowsOf<TakeSeatRow>(
    await db.execute(sql`
      select seat_outcome, seat_lease_id, seat_until
      from take_seat(${input.applicationId}::int, ${input.appUserId}::uuid, ${input.seats}::int,
        ${input.leaseMinutes}::int, ${input.tokenHash}::text, ${input.hwid}::text,
        ${input.now.toISOString()}::timestamptz)`),
  );
  if (!row) throw new Error('take_seat returned no row');
  return seatOutcomeOf(row);
}
