/**
 * What the client-api module offers the other modules, which import it from this file only (the
 * layer rules refuse their imports of its other files).
 */
export { blockedEventOf } from './blocked-event.ts';
export { ClientApiError, rateLimited } from './client-api-error.ts';
export { clientCalls } from './client-calls.ts';
export { clientMessages, standingRefusal } from './client-outcomes.ts';
export {
  KeyRefused,
  licenseRedeemedRecord,
  licenseRefusalMessages,
  refuseLicense,
} from './license-refusals.ts';
export { createLicenseThrottles, type LicenseThrottles } from './license-throttles.ts';
export { findUserAndAdmit } from './log-in-end-user.ts';
export { createLoginStatements, type LoginStatements } from './login-statements.ts';
export { createLoginThrottles, type LoginThrottles } from './login-throttles.ts';
export { upgradePasswordHash } from './upgrade-password-hash.ts';
