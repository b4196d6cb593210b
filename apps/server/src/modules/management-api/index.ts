/**
 * What the management-api module offers the other modules and the composition root, which import it
 * from this file only (the layer rules refuse their imports of its other files).
 */
export { managementAccountRoutes } from './account-routes.ts';
export { managementAppUserRoutes } from './app-user-routes.ts';
export { managementApplicationRoutes } from './application-routes.ts';
export { managementImportRoutes } from './import-routes.ts';
export { managementLicenseRoutes } from './license-routes.ts';
export { managementOrderRoutes } from './order-routes.ts';
