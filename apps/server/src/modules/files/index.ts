/**
 * What the files module offers the other modules, which import it from this file only (the
 * layer rules refuse their imports of its other files).
 */
export { createDownloadToken } from './download-token.ts';
export { fileRoutes } from './routes.ts';
export { downloadRoutes } from './download-routes.ts';
export type { FileStorage } from './file-storage.ts';
