import { z } from 'zod';
import { activityLogSchema } from './activity.ts';

/**
 * The console's live stream: `GET /api/events`, Server-Sent Events, owner-scoped like every
 * owner route. Each message's `event:` field is one of these types and its `data:` the JSON
 * below. The console applies them to its query caches instead of polling; an event names what
 * changed rather than carrying every number, so one refetch answers it.
 */
export const ownerEventTypes = [
  'activity',
  'stats',
  'app_user',
  'application',
  'bulk_progress',
] as const;
export type OwnerEventType = (typeof ownerEventTypes)[number];

/** A new activity-log row, exactly as the activity log's list shows it. */
export const activityOwnerEventSchema = z.object({
  type: z.literal('activity'),
  data: activityLogSchema,
});

/**
 * An application's numbers changed (sessions started or ended, logins counted): its stats,
 * the dashboard and the charts are stale. At most one per application a second.
 */
export const statsOwnerEventSchema = z.object({
  type: z.literal('stats'),
  data: z.object({ applicationId: z.number().int() }),
});

/** An end user was created, changed or deleted (in another tab, by a teammate, by a client). */
export const appUserOwnerEventSchema = z.object({
  type: z.literal('app_user'),
  data: z.object({
    applicationId: z.number().int(),
    /** Null when many users changed at once (a bulk action's batch). */
    userId: z.string().nullable(),
    change: z.enum(['created', 'updated', 'deleted']),
  }),
});

/** An application was created, changed or deleted. */
export const applicationOwnerEventSchema = z.object({
  type: z.literal('application'),
  data: z.object({
    applicationId: z.number().int(),
    change: z.enum(['created', 'updated', 'deleted']),
  }),
});

/**
 * Where a bulk action on end users stands (`POST /api/applications/{id}/users/bulk`): sent
 * after each batch and once more with `isFinished` when it ends (done or failed).
 */
export const bulkProgressOwnerEventSchema = z.object({
  type: z.literal('bulk_progress'),
  data: z.object({
    operationId: z.string(),
    applicationId: z.number().int(),
    action: z.string(),
    total: z.number().int().nonnegative(),
    done: z.number().int().nonnegative(),
    skipped: z.number().int().nonnegative(),
    isFinished: z.boolean(),
    /** Set when it stopped on an error; the batches before it stay done. */
    error: z.string().nullable(),
  }),
});

export const ownerEventSchema = z.discriminatedUnion('type', [
  activityOwnerEventSchema,
  statsOwnerEventSchema,
  appUserOwnerEventSchema,
  applicationOwnerEventSchema,
  bulkProgressOwnerEventSchema,
]);
export type OwnerEvent = z.infer<typeof ownerEventSchema>;
export type BulkProgress = z.infer<typeof bulkProgressOwnerEventSchema>['data'];
