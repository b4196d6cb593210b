/**
 * What the dashboard module offers the other modules, which import it from this file only (the
 * layer rules refuse their imports of its other files).
 */
export { isLiveSession } from './get-dashboard-stats.ts';
export { dashboardRoutes } from './routes.ts';
