export * from './owner-accounts.ts';
export * from './owner-sessions.ts';
export * from './applications.ts';
export * from './app-users.ts';
export * from './app-user-sessions.ts';
export * from './blacklist-entries.ts';
export * from './activity-logs.ts';
export * from './rate-limits.ts';
