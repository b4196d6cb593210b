/**
 * What the auth module offers the other modules, which import it from this file only (the
 * layer rules refuse their imports of its other files).
 */
export { findOwnerBySession } from './find-owner-by-session.ts';
export { sessionCookieName } from './session-cookie.ts';
export { publicAuthRoutes } from './routes.ts';
export { ownerAuthRoutes } from './routes.ts';
