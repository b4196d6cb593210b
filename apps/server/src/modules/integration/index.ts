/**
 * What the integration module offers the other modules and the composition root, which import it
 * from this file only (the layer rules refuse their imports of its other files).
 */
export { sampleRoutes } from './routes.ts';
export { codeFileRoutes } from './code-file-routes.ts';
