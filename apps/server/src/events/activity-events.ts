import type { ActivityEvent } from '@latchkey/contracts';
import type { FastifyBaseLogger } from 'fastify';

/** One authentication event of the client API, as the activity log stores it. */
export interface ActivityRecord {
  applicationId: number;
  appUserId: string | null;
  /** The username as the client sent it (kept even when no such user exists). */
  username: string | null;
  event: ActivityEvent;
  success: boolean;
  ipAddress: string | null;
  /** The message the client was answered with, for refusals; null on success. */
  errorMessage: string | null;
  /** `code` always; `hwid` and `version` as sent; `blockedBy`, `action` where they apply. */
  metadata: Record<string, unknown>;
  createdAt: Date;
}

export type ActivityListener = (record: ActivityRecord) => void;

/**
 * The subscription point for everything that reacts to client-API events (webhooks). A
 * listener is told synchronously, in the request, when recordActivity accepts an event:
 * it must be cheap and must not throw (a throwing listener is logged and skipped).
 */
export interface ActivityEvents {
  /** Returns a function that removes the listener. */
  onRecorded(listener: ActivityListener): () => void;
  emitRecorded(record: ActivityRecord, log: FastifyBaseLogger): void;
}

export function createActivityEvents(): ActivityEvents {
  const listeners = new Set<ActivityListener>();
  return {
    onRecorded(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emitRecorded(record, log) {
      for (const listener of listeners) {
        try {
          listener(record);
        } catch (error) {
          log.error({ err: error, event: record.event }, 'activity listener failed');
        }
      }
    },
  };
}
