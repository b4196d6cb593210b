import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import { startPeriodicTask, type PeriodicTask } from '../../lib/periodic-task.ts';
import { queueExpiryReminders } from './queue-expiry-reminders.ts';

/**
 * Reminders are counted in days: a sweep every ten minutes mails one within minutes of its
 * day coming, and costs an index range scan of the subscriptions ending within the window.
 */
export const EXPIRY_REMINDER_SWEEP_INTERVAL_MS = 10 * 60_000;
const START_DELAY_MS = 30_000;

/**
 * Queues the due expiry reminders on a schedule (queue-expiry-reminders.ts), waking the mail
 * worker when some were queued. Every instance may run it: the statement itself makes each
 * reminder go out once.
 */
export function startExpiryReminderSweep(options: {
  db: Database;
  log: FastifyBaseLogger;
  wakeMail: () => void;
}): PeriodicTask<number> {
  return startPeriodicTask({
    name: 'expiry reminder sweep',
    log: options.log,
    intervalMs: EXPIRY_REMINDER_SWEEP_INTERVAL_MS,
    startDelayMs: START_DELAY_MS,
    run: async () => {
      const queued = await queueExpiryReminders(options.db);
      if (queued > 0) options.wakeMail();
      return queued;
    },
  });
}
