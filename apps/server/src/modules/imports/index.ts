/**
 * What the imports module offers the other modules, which import it from this file only (the
 * layer rules refuse their imports of its other files).
 */
export { getImport } from './get-import.ts';
export { previewImport } from './preview-import.ts';
export { acceptExportFiles, exportFileOf, type RunningImports } from './routes.ts';
export { startImport } from './start-import.ts';
export { importRoutes } from './routes.ts';
