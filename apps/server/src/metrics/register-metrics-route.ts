import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { notFound, unauthenticated } from '../lib/errors.ts';
import type { AppMetrics } from './app-metrics.ts';
import { isMetricsTokenAccepted } from './metrics-token.ts';

/**
 * GET /metrics on the main port: served only behind METRICS_TOKEN, and only when metrics do
 * not have a listener of their own (METRICS_PORT); otherwise a 404, as if it did not exist,
 * rather than the console's page that any unknown path would get.
 */
export function registerMetricsRoute(
  app: FastifyInstance,
  { metrics, config }: { metrics: AppMetrics | null; config: Config },
): void {
  const token = config.metrics.port === null ? config.metrics.token : null;
  app.get('/metrics', async (request, reply) => {
    if (!metrics || token === null) throw notFound('Route GET /metrics not found');
    if (!isMetricsTokenAccepted(request.headers.authorization, token)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      throw unauthenticated('Metrics need the METRICS_TOKEN as a bearer token');
    }
    const text = await metrics.render();
    return reply.header('cache-control', 'no-store').type(metrics.contentType).send(text);
  });
}
