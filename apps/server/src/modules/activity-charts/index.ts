/**
 * What the activity-charts module offers the other modules, which import it from this file only (the
 * layer rules refuse their imports of its other files).
 */
export { CHART_HISTORY_MS } from './get-activity-chart.ts';
export { activityChartRoutes } from './routes.ts';
