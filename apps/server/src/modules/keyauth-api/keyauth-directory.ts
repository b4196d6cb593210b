import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { applications } from '../../db/schema/index.ts';
import { isEndUserChange, type ApplicationEvents } from '../../events/application-events.ts';
import type { Clock } from '../../lib/clock.ts';
import { unsealKeyauthSecret } from '../applications/index.ts';

/** What the compatible API needs to find an application from KeyAuth's `ownerid` and `name`. */
export interface KeyauthListing {
  apiKey: string;
  /** API 1.2's HMAC secret, unsealed. */
  secret: string;
  sessionHours: number;
}

export interface KeyauthDirectory {
  /** The application answering to this owner id and name, with compatibility on; else null. */
  find(ownerId: string, name: string): Promise<KeyauthListing | null>;
}

/**
 * Owner id and name to application, in memory. Any change to any application (in this
 * instance or another, through applicationEvents) empties it: such changes are rare, and it
 * is what makes turning compatibility off answer `KeyAuth_Invalid` at once everywhere. The
 * TTL is the backstop for a change the link could not carry; unknown pairs are not cached.
 */
export function createKeyauthDirectory(options: {
  db: Database;
  clock: Clock;
  serverSecret: string;
  applicationEvents: ApplicationEvents;
  ttlMs: number;
}): KeyauthDirectory {
  const { db, clock, serverSecret, ttlMs } = options;
  const entries = new Map<string, { listing: KeyauthListing; expiresAt: number }>();
  let generation = 0;
  let isLinked = true;
  options.applicationEvents.onChange((change) => {
    if (isEndUserChange(change)) return;
    if (change.kind === 'resync') isLinked = change.isLinked;
    generation += 1;
    entries.clear();
  });

  const byOwnerAndName = db
    .select({
      apiKey: applications.apiKey,
      secretSealed: applications.keyauthSecretSealed,
      sessionHours: applications.keyauthSessionHours,
    })
    .from(applications)
    .where(
      and(
        eq(applications.keyauthOwnerId, sql.placeholder('ownerId')),
        eq(applications.keyauthName, sql.placeholder('name')),
        eq(applications.keyauthCompatibility, true),
      ),
    )
    .limit(1)
    .prepare('keyauth_application_by_owner');

  return {
    async find(ownerId, name) {
      const key = `${ownerId}\u0000${name}`;
      const entry = entries.get(key);
      if (entry && entry.expiresAt > clock.now().getTime()) return entry.listing;
      const startedAt = generation;
      const [row] = await byOwnerAndName.execute({ ownerId, name });
      if (!row?.secretSealed) return null;
      const listing = {
        apiKey: row.apiKey,
        secret: unsealKeyauthSecret(row.secretSealed, serverSecret),
        sessionHours: row.sessionHours,
      };
      if (generation === startedAt && isLinked) {
        if (entries.size >= 10_000) entries.clear();
        entries.set(key, { listing, expiresAt: clock.now().getTime() + ttlMs });
      }
      return listing;
    },
  };
}
