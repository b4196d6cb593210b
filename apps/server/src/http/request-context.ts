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

export interface OwnerContext extends Context {
  account: OwnerAccount;
}
