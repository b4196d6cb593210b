import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client.ts';
import type { OwnerAccount } from '../db/schema/index.ts';
import type { Clock } from '../lib/clock.ts';

/** What every verb receives: who is asking, the database (or transaction), a logger and the clock. */
export interface Context {
  db: Database;
  log: FastifyBaseLogger;
  clock: Clock;
}

/**
 * The hand behind an owner's request, as the audit trail names it beside the account: the
 * console (the owner's own session) or a management API token acting for its creator, and the
 * address the request came from.
 */
export interface OwnerActor {
  /** The management API token, as it was named at the time; null in the console. */
  token: { id: string; name: string; prefix: string } | null;
  ipAddress: string;
}

export interface OwnerContext extends Context {
  account: OwnerAccount;
  actor: OwnerActor;
}
