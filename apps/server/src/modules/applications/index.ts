/**
 * What the applications module offers the other modules, which import it from this file only (the
 * layer rules refuse their imports of its other files).
 */
export { getApplicationStats } from './get-application-stats.ts';
export { listApplications } from './list-applications.ts';
export { toApplicationResponse } from './to-application-response.ts';
export { applicationRoutes } from './routes.ts';
export {
  generateKeyauthOwnerId,
  generateKeyauthSecret,
  sealKeyauthSecret,
  unsealKeyauthSecret,
} from './keyauth-secret.ts';
