import type { UserMeter } from '@latchkey/contracts';
import type { Database } from '../../db/client.ts';
import { userMetersOf } from '../meters/index.ts';
import { licensingOf, readHeldSubscriptions } from './held-subscriptions.ts';

/**
 * Where each usage meter of one end user stands now, as the owner, the management API and the
 * portal show it: the meters of their active subscriptions, merged by name as the client API
 * counts them. The caller has checked that the user is theirs.
 */
export async function readUserMeters(
  db: Database,
  appUserId: string,
  now: Date,
): Promise<UserMeter[]> {
  const licensing = licensingOf(await readHeldSubscriptions(db, appUserId), now);
  return userMetersOf(licensing.meters, licensing.meterUsage, now);
}
