import { z } from 'zod';
import { applicationIdSchema } from './applications.ts';
import { pageQueryFields } from './paging.ts';

/**
 * The ten authentication events of the client API, in the order the console lists them, then
 * the licence and device events. Webhooks subscribe to exactly these; the activity log records
 * them and the owner bulk action rows below.
 */
export const clientActivityEventNames = [
  'user_login',
  'user_register',
  'login_failed',
  'account_disabled',
  'account_expired',
  'version_mismatch',
  'hwid_mismatch',
  'login_blocked_ip',
  'login_blocked_username',
  'login_blocked_hwid',
  // Licence keys: a key redeemed (register, redeem or key login), a key refused, a key banned
  // by the owner. None counts as a login attempt.
  'license_redeemed',
  'license_failed',
  'license_banned',
  // Devices: a device bound to an account under HWID lock, and one released (by the owner, the
  // end user or inactivity: metadata.releasedBy). Neither is a login attempt.
  'device_added',
  'device_released',
  // Offline licences: a licence issued to a live session (metadata: licenseId, ttlSeconds,
  // validUntil, isEncrypted). Not a login attempt.
  'license_checkout',
  // Mail: a password chosen through a mailed link (metadata: via 'link'). Not a login attempt.
  'password_reset',
  // An e-mail address confirmed (metadata: via 'link' or 'owner'). Not a login attempt.
  'email_verified',
  // Shops: an order paid (keys minted), renewed (keys extended) or refunded or charged back
  // (keys banned). metadata: orderId, provider, providerOrderId. None is a login attempt.
  'order_paid',
  'order_renewed',
  'order_refunded',
  // Programs on KeyAuth's client libraries: a line the program logged (KeyAuth's `log`,
  // metadata: message, pcuser), and a user the program banned itself (KeyAuth's `ban`,
  // metadata: reason). Neither is a login attempt.
  'client_log',
  'user_banned',
  // Usage meters: the first time in a period a meter reaches its allowance (success true) or
  // refuses an increment (success false, code METER_EXHAUSTED). metadata: meter, allowance,
  // used. Not a login attempt.
  'meter_exhausted',
  // A machine's trial began (its account was created). metadata: hwid, trial_days, ends_at.
  'trial_started',
  // Floating seats: a login refused because every seat of the holder's floating plan was leased
  // (code NO_SEAT_AVAILABLE; metadata: seats, next_free_at). Counts as a failed login attempt.
  'seat_denied',
] as const;

/**
 * Every event of the activity log: the client API's, and one row per end user an owner's bulk
 * action changed or deleted (metadata.action, metadata.operationId), which is no login attempt
 * and no webhook event.
 */
export const activityEventNames = [...clientActivityEventNames, 'owner_bulk_action'] as const;
export const activityEventSchema = z.enum(activityEventNames);
export type ActivityEvent = z.infer<typeof activityEventSchema>;

/** Display labels, as the console and the webhooks page show each event. */
export const activityEventLabels: Record<ActivityEvent, string> = {
  user_login: 'User Login',
  user_register: 'User Registration',
  login_failed: 'Login Failed',
  account_disabled: 'Account Disabled',
  account_expired: 'Account Expired',
  version_mismatch: 'Version Mismatch',
  hwid_mismatch: 'HWID Mismatch',
  login_blocked_ip: 'IP Blocked',
  login_blocked_username: 'Username Blocked',
  login_blocked_hwid: 'HWID Blocked',
  license_redeemed: 'Licence Redeemed',
  license_failed: 'Licence Failed',
  license_banned: 'Licence Banned',
  device_added: 'Device Added',
  device_released: 'Device Released',
  license_checkout: 'Licence Checkout',
  password_reset: 'Password Reset',
  email_verified: 'E-mail Verified',
  order_paid: 'Order Paid',
  order_renewed: 'Order Renewed',
  order_refunded: 'Order Refunded',
  client_log: 'Program Log',
  user_banned: 'Banned by Program',
  meter_exhausted: 'Meter Exhausted',
  trial_started: 'Trial Started',
  seat_denied: 'Seat Denied',
  owner_bulk_action: 'Owner Bulk Action',
};

/** A successful login; stats count it against the failure events below. */
export const LOGIN_SUCCESS_EVENT = 'user_login' satisfies ActivityEvent;

/** Every way a login can be refused (a blocked registration also logs a login_blocked_* event). */
export const LOGIN_FAILURE_EVENTS = [
  'login_failed',
  'account_disabled',
  'account_expired',
  'version_mismatch',
  'hwid_mismatch',
  'login_blocked_ip',
  'login_blocked_username',
  'login_blocked_hwid',
] as const satisfies readonly ActivityEvent[];

/**
 * One activity log as GET /api/activity-logs returns it. `username` is the name as sent by the
 * client (kept when no such user exists or it was deleted); `appUser` is the matching end user
 * as it is now, or null. `metadata` holds `code` (the client-API code answered) and, where
 * sent, `hwid` and `version`; blocked requests add `blockedBy` (ip, username, email or hwid)
 * and blocked registrations `action: 'register'`.
 */
export const activityLogSchema = z
  .object({
    id: z.number().int(),
    event: activityEventSchema,
    success: z.boolean(),
    applicationId: z.number().int(),
    application: z.object({ name: z.string() }),
    appUser: z.object({ username: z.string() }).nullable(),
    username: z.string().nullable(),
    ipAddress: z.string().nullable(),
    errorMessage: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()),
    createdAt: z.iso.datetime(),
  })
  .meta({
    id: 'ActivityLog',
    description: 'One activity-log row: a client-API authentication event.',
  });
export type ActivityLog = z.infer<typeof activityLogSchema>;

export const activityLogListSchema = z.array(activityLogSchema);

/**
 * The filters of the activity log, shared by the list and its stat cards: ?applicationId
 * (blank means every application), ?event (blank means every event) and ?search (username, IP
 * address or event name or label, case-insensitively).
 */
const activityLogFilterFields = {
  applicationId: z.preprocess(
    (value) => (value === '' ? undefined : value),
    applicationIdSchema.optional(),
  ),
  event: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.enum(activityEventNames, `event must be one of ${activityEventNames.join(', ')}`).optional(),
  ),
  search: pageQueryFields.search,
};

/** GET /api/activity-logs?applicationId=&event=&search=&page=&pageSize= (newest first). */
export const activityLogsQuerySchema = z.object({
  ...activityLogFilterFields,
  page: pageQueryFields.page,
  pageSize: pageQueryFields.pageSize,
});
export type ActivityLogsQuery = z.output<typeof activityLogsQuerySchema>;

/** GET /api/activity-logs/stats?applicationId=&event=&search= */
export const activityLogStatsQuerySchema = z.object(activityLogFilterFields);
export type ActivityLogFilter = z.output<typeof activityLogStatsQuerySchema>;

/**
 * The four stat cards, over every log the filters match (all pages). A search that matches
 * more than SEARCH_COUNT_LIMIT logs is not counted through: `isCapped`, the limit as
 * `totalEvents` (a floor), and the other three unknown (null).
 */
export const activityLogStatsSchema = z.object({
  totalEvents: z.number().int().nonnegative(),
  successful: z.number().int().nonnegative().nullable(),
  failed: z.number().int().nonnegative().nullable(),
  /** Distinct client IP addresses; a log without one adds none. */
  uniqueIps: z.number().int().nonnegative().nullable(),
  isCapped: z.boolean(),
});
export type ActivityLogStats = z.infer<typeof activityLogStatsSchema>;

/** The events a search names, by event name or display label (ignoring case). */
export function activityEventsMatching(search: string): ActivityEvent[] {
  const needle = search.trim().toLowerCase();
  return activityEventNames.filter(
    (event) => event.includes(needle) || activityEventLabels[event].toLowerCase().includes(needle),
  );
}
