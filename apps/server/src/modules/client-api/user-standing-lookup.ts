import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { appUsers, emailVerifiedColumn } from '../../db/schema/index.ts';
import {
  heldSubscriptionsJson,
  licensedUntilMs,
  parseHeldSubscriptions,
  type HeldSubscription,
} from '../subscriptions/index.ts';
import type { Licensing } from './client-outcomes.ts';
import type { Clock } from '../../lib/clock.ts';
import { createMicroBatcher } from '../../lib/micro-batcher.ts';
import type { ApplicationEvents } from '../../events/application-events.ts';

/** What verify needs to know about an end user, their subscriptions included. */
export interface UserStanding extends Licensing {
  id: string;
  applicationId: number;
  isActive: boolean;
  isPaused: boolean;
  expiresAt: Date | null;
  isEmailVerified: boolean;
  held: HeldSubscription[];
}

export interface UserStandingLookup {
  /** The user with this id (a UUID), in any application; undefined if none. */
  load(userId: string): Promise<UserStanding | undefined>;
}

/**
 * End users' standing by id, in memory: verify, the hot path, then needs no query. An entry
 * is dropped as soon as the owner changes or deletes the user, or deletes the application,
 * in this instance or another (applicationEvents, which reach other instances through
 * PostgreSQL NOTIFY); everything is dropped when that link was interrupted. Only the owner
 * API and key redemptions change standing (each announces the user); expiry, the account's and
 * the subscriptions', is a date compared at each request, so it needs no event. `ttlMs` bounds what a change no event announced (an
 * operator's SQL) can leave stale. Unknown ids are not cached; misses are micro-batched:
 * the lookups of one event-loop turn share one prepared `= any($1)` query.
 */
export function createUserStandingLookup(options: {
  db: Database;
  clock: Clock;
  applicationEvents: ApplicationEvents;
  ttlMs: number;
  maxEntries?: number;
}): UserStandingLookup {
  const { db, clock, ttlMs } = options;
  const maxEntries = options.maxEntries ?? 100_000;
  const entries = new Map<string, { standing: UserStanding; expiresAt: number }>();
  // Bumped by every change: a lookup that started before a change must not cache its result.
  let generation = 0;
  // False while the link to other instances is down: their changes would go unheard.
  let isLinked = true;

  options.applicationEvents.onChange((change) => {
    if (change.kind === 'sessions-ended') return;
    generation += 1;
    if (change.kind === 'end-user-changed') {
      entries.delete(change.userId.toLowerCase());
    } else if (change.kind === 'end-users-changed') {
      for (const userId of change.userIds) entries.delete(userId.toLowerCase());
    } else if (change.kind === 'deleted' || change.kind === 'updated') {
      // Deleted: its users went with it (cascade). Updated: a setting or a plan's name or
      // entitlements changed, which the cached subscriptions hold. Rare enough to walk.
      for (const [id, entry] of entries) {
        if (entry.standing.applicationId === change.applicationId) entries.delete(id);
      }
    } else if (change.kind === 'resync') {
      isLinked = change.isLinked;
      entries.clear();
    }
  });

  const byIds = db
    .select({
      id: appUsers.id,
      applicationId: appUsers.applicationId,
      isActive: appUsers.isActive,
      isPaused: appUsers.isPaused,
      expiresAt: appUsers.expiresAt,
      isEmailVerified: emailVerifiedColumn(),
      held: heldSubscriptionsJson(appUsers.id),
    })
    .from(appUsers)
    .where(sql`${appUsers.id} = any(${sql.placeholder('userIds')}::uuid[])`)
    .prepare('client_api_user_standing');
  const batcher = createMicroBatcher<UserStanding>(async (_group, userIds) => {
    const startedAt = generation;
    const users = (await byIds.execute({ userIds })).map((row): UserStanding => {
      const held = parseHeldSubscriptions(row.held);
      return { ...row, held, licensedUntilMs: licensedUntilMs(held) };
    });
    const found = new Map(users.map((user) => [user.id, user]));
    if (generation === startedAt && isLinked) {
      const expiresAt = clock.now().getTime() + ttlMs;
      for (const user of users) {
        if (entries.size >= maxEntries) {
          const oldest = entries.keys().next();
          if (!oldest.done) entries.delete(oldest.value);
        }
        entries.set(user.id, { standing: user, expiresAt });
      }
    }
    return found;
  });

  return {
    load(userId) {
      // PostgreSQL answers with lower-case UUIDs; the key must match what comes back.
      const id = userId.toLowerCase();
      const entry = entries.get(id);
      if (entry) {
        if (entry.expiresAt > clock.now().getTime()) return Promise.resolve(entry.standing);
        entries.delete(id);
      }
      return batcher.load(0, id);
    },
  };
}
