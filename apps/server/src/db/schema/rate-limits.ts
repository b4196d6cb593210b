import { bigint, integer, pgTable, varchar } from 'drizzle-orm/pg-core';

/**
 * Throttle counters shared by every instance and kept across restarts: the table layout
 * rate-limiter-flexible's RateLimiterPostgres expects (key, points, expire in epoch ms).
 * Created here, by a migration, so the library never issues DDL at run time.
 */
export const rateLimits = pgTable('rate_limits', {
  key: varchar('key', { length: 255 }).primaryKey(),
  points: integer('points').notNull().default(0),
  expire: bigint('expire', { mode: 'number' }),
});
