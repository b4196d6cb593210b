import type { OwnerEvent } from '@latchkey/contracts';

/**
 * Publishes events to the consoles of one owner account, on every instance (issue 26).
 * Placeholder interface while the hub is being written; see the module's README in
 * docs/architecture.md once it lands.
 */
export interface OwnerEventHub {
  /**
   * Sends the event to every open console stream of the account, on this instance and (over
   * PostgreSQL NOTIFY) on every other. Never rejects; a failure is logged.
   */
  publish(accountId: string, event: OwnerEvent): Promise<void>;
}
