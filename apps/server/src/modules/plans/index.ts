/**
 * What the plans module offers the other modules, which import it from this file only (the
 * layer rules refuse their imports of its other files).
 */
export { listPlans } from './list-plans.ts';
export { planRoutes } from './routes.ts';
