import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { AppMetrics } from './app-metrics.ts';
import { isMetricsTokenAccepted } from './metrics-token.ts';

export interface MetricsListener {
  readonly address: AddressInfo;
  close(): Promise<void>;
}

/**
 * METRICS_PORT's listener: a bare node:http server that answers GET /metrics and nothing
 * else, apart from the app (none of its hooks, limits or console), so a scrape keeps working
 * when the main port is saturated. METRICS_TOKEN, when also set, is required here too.
 */
export async function startMetricsListener(options: {
  host: string;
  port: number;
  token: string | null;
  metrics: AppMetrics;
  log: FastifyBaseLogger;
}): Promise<MetricsListener> {
  const { metrics, token, log } = options;
  const answer = (response: ServerResponse, status: number, text: string) => {
    response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(text);
  };
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/metrics') return answer(response, 404, 'Not found: metrics are at /metrics\n');
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.setHeader('allow', 'GET, HEAD');
      return answer(response, 405, 'Method not allowed\n');
    }
    if (token !== null && !isMetricsTokenAccepted(request.headers.authorization, token)) {
      response.setHeader('www-authenticate', 'Bearer realm="metrics"');
      return answer(response, 401, 'Metrics need the METRICS_TOKEN as a bearer token\n');
    }
    metrics.render().then(
      (text) => {
        response
          .writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' })
          .end(request.method === 'HEAD' ? undefined : text);
      },
      (error: unknown) => {
        log.error({ err: error }, 'metrics could not be rendered');
        answer(response, 500, 'Internal server error\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (error) => log.error({ err: error }, 'metrics listener failed'));
  return {
    address: server.address() as AddressInfo,
    close: () =>
      new Promise((resolve) => {
        // A scraper's keep-alive connection would otherwise hold the shutdown open.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
