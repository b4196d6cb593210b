/**
 * What the owner-events module offers the other modules, which import it from this file only (the
 * layer rules refuse their imports of its other files).
 */
export { publishConsoleChanges } from './publish-console-changes.ts';
export { ownerEventRoutes } from './routes.ts';
