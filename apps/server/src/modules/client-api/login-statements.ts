import { and, eq, Placeholder, sql, type SQL } from 'drizzle-orm';
import type { BlacklistType } from '@latchkey/contracts';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { DatabaseConnection } from '../../db/client.ts';
import { rowsOf } from '../../db/rows-of.ts';
import {
  appUsers,
  blacklistEntries,
  emailVerifiedColumn,
  licenseKeys,
} from '../../db/schema/index.ts';
import type { ThrottleRow } from '../../lib/failure-throttle.ts';
import { deliveriesOfInsertedActivity } from '../../outbox/webhook-outbox.ts';
import {
  blacklistMatchCondition,
  blacklistProbeParameters,
  firstBlockedPart,
  type BlacklistProbe,
} from '../blacklist/index.ts';
import {
  heldSubscriptionsJson,
  parseHeldSubscriptions,
  type HeldSubscription,
  type RawHeldSubscription,
} from '../subscriptions/index.ts';
import { seatOutcomeOf, type SeatOutcome, type TakeSeatRow } from '../seats/index.ts';
import type { PrefetchKeys, PrefetchedRows } from './login-throttles.ts';
import type { IdentifiedUser } from './identified-user.ts';

/** The user a login names, as its checks need it. */
interface LoginUser {
  id: string;
  username: string;
  email: string | null;
  passwordHash: string;
  isActive: boolean;
  isPaused: boolean;
  expiresAt: Date | null;
  /** The address was confirmed (for an application that requires it). */
  isEmailVerified: boolean;
  hwid: string | null;
  /** Exempt from the per-username failure limit (see login-throttles.ts). */
  lastLoginIp: string | null;
  held: HeldSubscription[];
}

/**
 * The failure counters of the database store read beside a lookup (login's three keys and a
 * licence call's four; none with Redis, which keeps them itself): live rows only, as
 * rate-limiter-flexible reads them.
 */
const liveThrottleRowsJson = sql<ThrottleRowWithKey[] | null>`(
  select json_agg(json_build_object('key', key, 'points', points, 'expire', expire))
  from rate_limits
  where key = any(${sql.placeholder('throttleKeys')}::text[])
    and (expire > ${sql.placeholder('throttleNowMs')} or expire is null))`;

/** Login's statements, prepared once per app: parsing and planning them per login adds up. */
export function createLoginStatements(connection: DatabaseConnection) {
  const { db } = connection;
  const namedUser = db
    .select({
      id: appUsers.id,
      username: appUsers.username,
      email: appUsers.email,
      passwordHash: appUsers.passwordHash,
      isActive: appUsers.isActive,
      isPaused: appUsers.isPaused,
      expiresAt: appUsers.expiresAt,
      isEmailVerified: emailVerifiedColumn().as('is_email_verified'),
      hwid: appUsers.hwid,
      lastLoginIp: appUsers.lastLoginIp,
      held: heldSubscriptionsJson(appUsers.id).as('held'),
    })
    .from(appUsers)
    .where(
      and(
        eq(appUsers.applicationId, sql.placeholder('applicationId')),
        eq(appUsers.username, sql.placeholder('loginUsername')),
      ),
    )
    .limit(1)
    .as('login_user');
  // The blacklist types a request matches, given the e-mail to check (a found user's, or null).
  const matchedTypes = (email: SQL) =>
    db
      .select({ types: sql`array_agg(distinct ${blacklistEntries.type})` })
      .from(blacklistEntries)
      .where(blacklistMatchCondition(email));
  // One round trip for both questions, and exactly one row whether or not the user exists
  // (an unknown username can still be blacklisted by IP, name or HWID). Under load every
  // round trip costs the database and the event loop far more than the queries themselves.
  const userAndBlacklist = db
    .select({
      id: namedUser.id,
      username: namedUser.username,
      email: namedUser.email,
      passwordHash: namedUser.passwordHash,
      isActive: namedUser.isActive,
      isPaused: namedUser.isPaused,
      expiresAt: namedUser.expiresAt,
      isEmailVerified: namedUser.isEmailVerified,
      hwid: namedUser.hwid,
      lastLoginIp: namedUser.lastLoginIp,
      held: namedUser.held,
      blacklistedTypes: sql<string[] | null>`(${matchedTypes(sql`lower(${namedUser.email})`)})`,
      throttles: liveThrottleRowsJson,
    })
    .from(sql`(select 1) as one`)
    .leftJoin(namedUser, sql`true`)
    .prepare('client_api_login_user');
  // Key login's one read: the key by its digest and, once it is used, its holder as a login's
  // last checks need them, the blacklist's match (no user or e-mail is known yet) and, with the
  // database store, the licence throttle counters. Exactly one row, found key or not. Raw SQL
  // over a lateral join, which the query builder cannot prepare; prepared, since planning the
  // two lookups it replaced cost PostgreSQL more than running them (~340 µs a key login).
  const keyLookup = new PgDialect().sqlToQuery(sql`
    select key_row.*,
           (${matchedTypes(sql`null::text`)}) as "blacklistedTypes",
           ${liveThrottleRowsJson} as throttles
    from (select 1) as one
    left join lateral (
      select license_keys.id, license_keys.state, license_keys.redeem_by as "redeemBy",
             app_users.id as "usedBy", app_users.username as "usedByName",
             app_users.email, app_users.is_active as "isActive",
             app_users.is_paused as "isPaused", app_users.expires_at as "expiresAt",
             ${emailVerifiedColumn()} as "isEmailVerified", app_users.hwid,
             ${heldSubscriptionsJson(appUsers.id)} as held
      from ${licenseKeys} left join ${appUsers} on app_users.id = license_keys.used_by_user_id
      where license_keys.application_id = ${sql.placeholder('applicationId')}
        and license_keys.key_digest = ${sql.placeholder('keyDigest')}
    ) as key_row on true`);
  // Each positional parameter: a placeholder's name, or a value the text holds (the blacklist
  // condition's `is_active = true`).
  const keyLookupValues = (values: Record<string, unknown>) =>
    keyLookup.params.map((param) => (param instanceof Placeholder ? values[param.name] : param));
  // One prepared statement per shape: with or without a device to touch, with or without a seat.
  const statements = {
    plain: compileLoginSuccess({ isDeviceBound: false, takesSeat: false }),
    device: compileLoginSuccess({ isDeviceBound: true, takesSeat: false }),
    seat: compileLoginSuccess({ isDeviceBound: false, takesSeat: true }),
    deviceSeat: compileLoginSuccess({ isDeviceBound: true, takesSeat: true }),
  };
  return {
    /**
     * The user with this username (if any), the part of the request that is blocked, and
     * (database store) the login throttle counters and those of `otherThrottleKeys`.
     */
    async findUserAndBlock(
      probe: Omit<BlacklistProbe, 'email'>,
      throttleKeys: PrefetchKeys | null,
      otherThrottleKeys: string[] = [],
    ): Promise<{
      user: LoginUser | undefined;
      blockedBy: BlacklistType | null;
      throttles: PrefetchedRows | undefined;
      /** The rows of `otherThrottleKeys`, by key (absent: no live row). */
      otherThrottles: { nowMs: number; rows: Map<string, ThrottleRow> };
    }> {
      const nowMs = Date.now();
      const [row] = await userAndBlacklist.execute({
        ...blacklistProbeParameters(probe),
        loginUsername: probe.username,
        throttleKeys: throttleKeys
          ? [throttleKeys.userAndIp, throttleKeys.ip, throttleKeys.user, ...otherThrottleKeys]
          : otherThrottleKeys,
        throttleNowMs: nowMs,
      });
      const rows = throttleRowsByKey(row?.throttles ?? null);
      return {
        user: row && row.id !== null ? foundUser(row) : undefined,
        blockedBy: firstBlockedPart(row?.blacklistedTypes ?? null),
        throttles: throttleKeys
          ? {
              nowMs,
              rows: {
                userAndIp: rows.get(throttleKeys.userAndIp),
                ip: rows.get(throttleKeys.ip),
                user: rows.get(throttleKeys.user),
              },
            }
          : undefined,
        otherThrottles: { nowMs, rows },
      };
    },
    /**
     * A licence key by its digest with its holder (null while unused, or gone), the part of the
     * request that is blocked, and (database store) the counters of `throttleKeys`.
     */
    async findKeyAndBlock(
      probe: Omit<BlacklistProbe, 'email' | 'username'>,
      keyDigest: string,
      throttleKeys: string[],
    ): Promise<{
      key: KeyAndHolder | undefined;
      blockedBy: BlacklistType | null;
      throttles: { nowMs: number; rows: Map<string, ThrottleRow> };
    }> {
      const nowMs = Date.now();
      const values: Record<string, unknown> = {
        // A key login names no user: the username part never matches.
        ...blacklistProbeParameters({ ...probe, username: '' }),
        keyDigest,
        throttleKeys,
        throttleNowMs: nowMs,
      };
      const result = await connection.query({
        name: 'client_api_key_and_block',
        text: keyLookup.sql,
        values: keyLookupValues(values),
      });
      const [row] = rowsOf<KeyLookupRow>(result);
      if (!row) throw new Error('the key lookup returned no row');
      return {
        key: row.id === null ? undefined : keyAndHolderOf(row),
        blockedBy: firstBlockedPart(row.blacklistedTypes),
        throttles: { nowMs, rows: throttleRowsByKey(row.throttles) },
      };
    },
    /**
     * A successful login's writes, in one statement and one round trip: for a floating plan's
     * holder the seat's lease first, the login stamp (what a session start must match:
     * track-client-session.ts), under HWID lock the device's last sight (it must be bound, and
     * within the user's device seats), the `user_login` activity row and its webhook deliveries
     * (the outbox). Atomic without BEGIN and COMMIT, so the event is acknowledged with the
     * login itself; `written` undefined (the device is not bound, the user was deleted, no
     * floating seat was free) means nothing but a lease was written.
     */
    async stampAndRecordLogin(input: LoginSuccessInput): Promise<LoginWrite> {
      const { device, seat } = input;
      const statement =
        statements[
          device === null
            ? seat === null
              ? 'plain'
              : 'seat'
            : seat === null
              ? 'device'
              : 'deviceSeat'
        ];
      const result = await connection.query({
        name: statement.name,
        text: statement.text,
        values: [
          input.userId,
          input.now.toISOString(),
          input.ipAddress,
          input.loginHwid,
          input.tokenHash,
          input.applicationId,
          JSON.stringify(input.metadata),
          ...(device === null ? [] : [device.hwid, device.name, device.limit]),
          ...(seat === null ? [] : [seat.seats, seat.leaseMinutes]),
        ],
      });
      // The seat's columns are there only when the statement took one.
      const [row] = rowsOf<LoginWriteRow & TakeSeatRow>(result);
      if (!row) throw new Error('the login statement returned no row');
      return {
        written: row.is_stamped
          ? { hwid: row.hwid ?? null, queuedDeliveries: Number(row.queued) }
          : undefined,
        seat: seat === null ? null : seatOutcomeOf(row),
      };
    },
  };
}

/** A licence key as key login finds it, and its holder as a login's last checks need them. */
export interface KeyAndHolder {
  id: string;
  state: 'unused' | 'used' | 'banned';
  redeemBy: Date | null;
  usedBy: string | null;
  usedByName: string | null;
  holder: IdentifiedUser | null;
}

/** Key login's one row: the key's columns are null when no key has the digest. */
interface KeyLookupRow {
  id: string | null;
  state: KeyAndHolder['state'] | null;
  redeemBy: Date | null;
  usedBy: string | null;
  usedByName: string | null;
  email: string | null;
  isActive: boolean | null;
  isPaused: boolean | null;
  expiresAt: Date | null;
  isEmailVerified: boolean | null;
  hwid: string | null;
  held: RawHeldSubscription[] | null;
  blacklistedTypes: string[] | null;
  throttles: ThrottleRowWithKey[] | null;
}

function keyAndHolderOf(row: KeyLookupRow): KeyAndHolder {
  const { usedBy, usedByName } = row;
  return {
    id: row.id!,
    state: row.state!,
    redeemBy: row.redeemBy,
    usedBy,
    usedByName,
    holder:
      usedBy === null || usedByName === null
        ? null
        : {
            id: usedBy,
            username: usedByName,
            email: row.email,
            isActive: row.isActive!,
            isPaused: row.isPaused!,
            expiresAt: row.expiresAt,
            isEmailVerified: row.isEmailVerified!,
            hwid: row.hwid,
            held: parseHeldSubscriptions(row.held),
          },
  };
}

/** The closing statement's row, beside the `take_seat` columns of a seat-taking one. */
interface LoginWriteRow {
  is_stamped: boolean;
  hwid: string | null;
  queued: number | string;
}

/**
 * What a login's closing statement did: `written` when it stamped the user and wrote the
 * event (nothing otherwise: the device is not bound, the user was deleted, or no seat was
 * free); `seat`, for a floating plan's holder, the seat `take_seat` leased or refused.
 */
export interface LoginWrite {
  written: { hwid: string | null; queuedDeliveries: number } | undefined;
  seat: SeatOutcome | null;
}

interface LoginSuccessInput {
  userId: string;
  now: Date;
  ipAddress: string;
  loginHwid: string | null;
  tokenHash: string;
  applicationId: number;
  /** The user_login row's metadata. */
  metadata: Record<string, unknown>;
  /**
   * Under HWID lock, the device the login comes from: it must be bound already (bind-device.ts
   * binds new ones) and among the first `limit` the user bound; its name, when sent, is kept.
   */
  device: { hwid: string; name: string | null; limit: number } | null;
  /**
   * A floating plan's holder leases one of `seats` for this login, in the same statement (see
   * the `take_seat` database function); nothing is stamped or written when every seat is
   * leased. Null: no seat to take.
   */
  seat: { seats: number; leaseMinutes: number } | null;
}

/**
 * The text of the login-success statement. Raw SQL with positional parameters, prepared
 * once per connection by name: a data-modifying CTE chain the query builder cannot prepare.
 * Under HWID lock (`isDeviceBound`) the stamp happens only if the device's row was touched:
 * bound, and fewer than `$10` of the user's devices were bound before it (a limit lowered
 * since, or a lapsed plan, leaves the newest devices out until some are released). A release
 * racing the login deletes the row first or waits for this statement: never half of both.
 * With `takesSeat` the statement first leases a floating seat through `take_seat` (seats and
 * lease length the last two parameters) and writes nothing else unless one was free: the
 * seat, the stamp and the event share one commit. The function locks the user's row and
 * counts with fresh snapshots, so racing logins count in turn; the stamp's update that
 * follows sees the row's newest version.
 */
function compileLoginSuccess({
  isDeviceBound,
  takesSeat,
}: {
  isDeviceBound: boolean;
  takesSeat: boolean;
}): { name: string; text: string } {
  const deliveries = new PgDialect().sqlToQuery(deliveriesOfInsertedActivity(sql`inserted`));
  if (deliveries.params.length > 0) throw new Error('the deliveries CTE must hold no parameters');
  const seatsParameter = isDeviceBound ? 11 : 8;
  const seatTaken = takesSeat ? `and (select seat_outcome from seat) = 'taken'` : '';
  const seat = takesSeat
    ? `seat as (
      select seat_outcome, seat_lease_id, seat_until
      from take_seat($6::int, $1::uuid, $${seatsParameter}::int, $${seatsParameter + 1}::int,
                     $5::text, $4::text, $2::timestamptz)
    ),
    `
    : '';
  const touched = isDeviceBound
    ? `touched as (
      update app_user_devices d
      set last_seen_at = $2::timestamptz, last_ip = $3::text, name = coalesce($9::text, d.name)
      where d.app_user_id = $1::uuid and d.hwid = $8::text ${seatTaken}
        and (select count(*) from app_user_devices earlier
             where earlier.app_user_id = $1::uuid
               and (earlier.first_seen_at, earlier.id) < (d.first_seen_at, d.id)) < $10::int
      returning d.app_user_id
    ),
    `
    : '';
  return {
    name: `client_api_login_success${isDeviceBound ? '_device' : ''}${takesSeat ? '_seat' : ''}`,
    text: `
    with ${seat}${touched}stamped as (
      update app_users
      set last_login = $2::timestamptz, last_login_ip = $3::text,
          last_login_hwid = $4::text, last_login_token_hash = $5::text
      where id = $1::uuid ${isDeviceBound ? 'and exists (select 1 from touched)' : ''} ${seatTaken}
      returning id, username, hwid
    ),
    inserted as (
      insert into activity_logs
        (application_id, app_user_id, username, event, success, ip_address, error_message,
         metadata, created_at)
      select $6::int, s.id, s.username, 'user_login', true, $3::text, null, $7::jsonb,
             $2::timestamptz
      from stamped s
      returning id, application_id, app_user_id, username, event, success, ip_address,
                error_message, metadata, created_at
    ),
    queued as (${deliveries.sql})
    select exists (select 1 from stamped) as is_stamped, (select hwid from stamped) as hwid,
           (select count(*) from queued)::int as queued${
             takesSeat ? ', seat.seat_outcome, seat.seat_lease_id, seat.seat_until from seat' : ''
           }`,
  };
}

interface ThrottleRowWithKey {
  key: string;
  points: number;
  expire: number | string | null;
}

/** The store's live rows read beside the user, by key (bigint `expire` may arrive as text). */
function throttleRowsByKey(rows: ThrottleRowWithKey[] | null): Map<string, ThrottleRow> {
  return new Map(
    (rows ?? []).map((row) => [
      row.key,
      { points: Number(row.points), expire: row.expire === null ? null : Number(row.expire) },
    ]),
  );
}

/** The left join makes every column nullable; with an id, the row is a user and they are not. */
function foundUser(
  row: { [K in Exclude<keyof LoginUser, 'held'>]: LoginUser[K] | null } & {
    held: RawHeldSubscription[] | null;
  },
): LoginUser {
  return {
    held: parseHeldSubscriptions(row.held),
    id: row.id!,
    username: row.username!,
    email: row.email,
    passwordHash: row.passwordHash!,
    isActive: row.isActive!,
    isPaused: row.isPaused!,
    expiresAt: row.expiresAt,
    isEmailVerified: row.isEmailVerified!,
    hwid: row.hwid,
    lastLoginIp: row.lastLoginIp,
  };
}

export type LoginStatements = ReturnType<typeof createLoginStatements>;
