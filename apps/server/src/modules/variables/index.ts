/**
 * What the variables module offers the other modules, which import it from this file only (the
 * layer rules refuse their imports of its other files).
 */
export { writeUserVariable } from './write-user-variable.ts';
export { variableRoutes } from './routes.ts';
