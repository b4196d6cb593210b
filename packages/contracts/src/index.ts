export * from './app-users.ts';
export * from './applications.ts';
export * from './auth.ts';
export * from './dashboard.ts';
export * from './errors.ts';
export * from './roles.ts';
export * from './runtime-config.ts';
