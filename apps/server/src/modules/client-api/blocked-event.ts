import type { ActivityEvent, BlacklistType } from '@latchkey/contracts';

/**
 * The activity log's three block events for the four blacklist types: a blocked e-mail
 * identifies the account like a username does, so it is logged as login_blocked_username,
 * with `blockedBy: 'email'` in the metadata.
 */
export const blockedEventOf: Record<BlacklistType, ActivityEvent> = {
  ip: 'login_blocked_ip',
  username: 'login_blocked_username',
  email: 'login_blocked_username',
  hwid: 'login_blocked_hwid',
};
