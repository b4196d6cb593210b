/**
 * What the activity module offers the other modules, which import it from this file only (the
 * layer rules refuse their imports of its other files).
 */
export { type ActivityRecorder, writeActivityRows } from './activity-recorder.ts';
export { foldCounterDeltas } from './fold-counter-deltas.ts';
export { listActivityLogs } from './list-activity-logs.ts';
export { activityRoutes } from './routes.ts';
