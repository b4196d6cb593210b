/**
 * What the portal module offers the other modules and the composition root, which import it
 * from this file only (the layer rules refuse their imports of its other files).
 */
export { portalRoutes } from './routes.ts';
