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
export type { ClientApplication } from './client-app-cache.ts';
export type { ClientCaller, ClientCallRequest } from './client-caller.ts';
export type { ClientCallServices } from './client-call-services.ts';
export type { ClientCallPipeline } from './client-call-pipeline.ts';
export { appDisabled, refusal, type ClientOutcome } from './client-outcomes.ts';
export { issueFileUrl } from './issue-file-url.ts';
export { loadLiveSession } from './live-session.ts';
export { logInEndUser } from './log-in-end-user.ts';
export { findKeyUser, logInWithLicense } from './log-in-with-license.ts';
export { issueOfflineLicense, licenseCheckoutRecord } from './issue-offline-license.ts';
export { readApplicationVariable } from './read-application-variable.ts';
export { readOwnUserVariable } from './read-own-user-variable.ts';
export { redeemLicense } from './redeem-license.ts';
export { registerEndUser } from './register-end-user.ts';
export { requestPasswordReset } from './request-password-reset.ts';
export { setOwnUserVariable } from './set-own-user-variable.ts';
export { trackClientSession } from './track-client-session.ts';
export { answerBeforeFastify, readBody } from './lean-client-path.ts';
