import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { ActivityRecorder } from '../activity/index.ts';
import type { BlacklistMatcher } from '../blacklist/index.ts';
import type { ClientApplication } from './client-app-cache.ts';

/**
 * What every client-API verb receives: the application the API key identified (instead of
 * an owner), the client's address, the database, logger and clock, the recorder that
 * takes side effects off the response path, and the blacklist.
 */
export interface ClientContext {
  application: ClientApplication;
  ipAddress: string;
  db: Database;
  log: FastifyBaseLogger;
  clock: Clock;
  activity: ActivityRecorder;
  blacklist: BlacklistMatcher;
}
