import { z } from 'zod';
import { applicationIdSchema } from './applications.ts';

/**
 * The authentication events of the client API (spec doc 2 §3), in the spec's order. The
 * activity log records exactly these; webhooks subscribe to the same names.
 */
export const activityEventNames = [
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
] as const;
export const activityEventSchema = z.enum(activityEventNames);
export type ActivityEvent = z.infer<typeof activityEventSchema>;

/** Display labels of spec doc 2 §3. */
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

/** Most logs GET /api/activity-logs returns (the newest ones). */
export const ACTIVITY_LOG_LIST_LIMIT = 1000;

/**
 * One activity log as GET /api/activity-logs returns it (spec doc 2 §3). `username` is the
 * name as sent by the client (kept when no such user exists or it was deleted); `appUser`
 * is the matching end user as it is now, or null. `metadata` holds `code` (the client-API
 * code answered) and, where sent, `hwid` and `version`; blocked requests add `blockedBy`
 * (ip, username, email or hwid) and blocked registrations `action: 'register'`.
 */
export const activityLogSchema = z.object({
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
});
export type ActivityLog = z.infer<typeof activityLogSchema>;

export const activityLogListSchema = z.array(activityLogSchema);

/** GET /api/activity-logs?applicationId= (optional; blank means every application). */
export const activityLogsQuerySchema = z.object({
  applicationId: z.preprocess(
    (value) => (value === '' ? undefined : value),
    applicationIdSchema.optional(),
  ),
});
export type ActivityLogsQuery = z.output<typeof activityLogsQuerySchema>;
