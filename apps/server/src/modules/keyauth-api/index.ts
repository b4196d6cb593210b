/**
 * What the KeyAuth-compatible API module offers the other modules, which import it from this
 * file only (the layer rules refuse their imports of its other files).
 */
export { KEYAUTH_INVALID, KEYAUTH_SUCCESS_CODE } from './keyauth-answerer.ts';
export { keyauthRoutes } from './keyauth-route-definitions.ts';
export { registerKeyauthApi } from './routes.ts';
